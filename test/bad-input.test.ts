/** The bad-input corpus (fixtures/bad-input/): the built CLI on hostile projects gives a diagnostic or a clean skip, the documented exit code, no stack trace, in bounded time. */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BIN } from './helpers.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = CLI_BIN;
const CORPUS = path.join(ROOT, 'fixtures/bad-input');
const BASE = path.join(CORPUS, '_base');
/** Root ignores file permissions, so an unreadable file is readable to it. */
const IS_ROOT = process.getuid?.() === 0;

/** One expected finding: every given field must match (`messageIncludes` is a substring of the message). */
interface ExpectedFinding {
  ruleId: string;
  /** Any file when not given. */
  file?: string;
  line?: number;
  column?: number;
  severity?: 'error' | 'warn';
  messageIncludes?: string;
  /** One of these is a substring of the message (an outcome that depends on the machine's speed: a budget or the heap limit). */
  messageIncludesAny?: string[];
}

/** The shape of fixtures/bad-input/<case>/expected.json (see fixtures/bad-input/README.md). */
interface Expected {
  description: string;
  /** Copy fixtures/bad-input/_base first (a clean one-command Python project). */
  base: boolean;
  /** Name of a generator below that writes files too large, or too odd, to commit. */
  generate?: string;
  /** The exit code, or the codes one of which the run may end with (a case whose outcome depends on the machine's speed). */
  exitCode: number | number[];
  /** Hang guard in wall-clock seconds (generous: the CI machine is shared). */
  maxSeconds: number;
  /** Bound on the CLI process's peak resident memory in MB (worker threads included), when given. */
  maxMegabytes?: number;
  /** More command-line arguments, after `--root <dir> --format json`. */
  args?: string[];
  /** More environment variables for the run (test overrides of limits). */
  env?: Record<string, string>;
  findings?: ExpectedFinding[];
  /** Findings expected instead of `findings` when the test runs as root. */
  findingsAsRoot?: ExpectedFinding[];
  /** Every finding has one of these rule ids. */
  onlyRules?: string[];
  /** Exact number of findings. */
  count?: number;
  stderrIncludes?: string[];
  /** Stderr must contain one of these (an outcome that depends on the machine's speed). */
  stderrIncludesAny?: string[];
  /**
   * The project-relative file `args` write the report to (`-o`): its results are checked instead
   * of stdout's; a SARIF log's by `ruleId` (`onlyRules`) and number (`count`).
   */
  reportFile?: string;
  /**
   * Run the CLI a second time on the unchanged project (with the cache on, a hit): the same
   * bounds hold, and its exit code, stdout and report must equal the first run's.
   */
  again?: boolean;
}

interface JsonResult {
  file: string;
  line: number;
  column: number;
  ruleId: string;
  severity: string;
  message: string;
}

/** Writes `n` lines `export ZQ_G<i>=1` into pages docs/exports<k>.md of 2,000 lines each (4,000 words: within the 5,000 words of example commands a page is read up to). */
function exportPages(dir: string, n: number): void {
  for (let from = 0; from < n; from += 2000) {
    const lines = Array.from({ length: Math.min(2000, n - from) }, (_, i) => `export ZQ_G${from + i}=1\n`).join('');
    writeFileSync(path.join(dir, `docs/exports${from / 2000}.md`), `# Running \`tool\`\n\n\`\`\`bash\n${lines}\`\`\`\n`);
  }
}

/** Generators for inputs built at test time, by `generate` name; each writes into the project dir. */
const GENERATORS: Record<string, (dir: string) => void> = {
  'large-markdown': (dir) => {
    const para = 'Run `tool` with `+seed=1`; see the [reference](reference.md#tool). Some **bold** prose and a `code` span.\n\n';
    const chunk = para.repeat(Math.ceil((1024 * 1024) / para.length));
    const file = path.join(dir, 'docs/huge.md');
    writeFileSync(file, '# tool\n\n');
    for (let i = 0; i < 50; i++) appendFileSync(file, chunk);
  },
  'large-table': (dir) => {
    const rows = Array.from({ length: 10_000 }, (_, i) => `| \`extra_${i}\` | int | \`${i}\` | Stale row ${i}. |`);
    appendFileSync(path.join(dir, 'docs/reference.md'), `${rows.join('\n')}\n`);
  },
  'deep-nesting': (dir) => {
    writeFileSync(path.join(dir, 'docs/deep-list.md'), `# \`tool\`\n\n${'- '.repeat(5000)}\`seed\`\n`);
    const lines = Array.from({ length: 300 }, (_, i) => `${'  '.repeat(i)}- level ${i}`);
    writeFileSync(path.join(dir, 'docs/deep-indent.md'), `# \`tool\`\n\n${lines.join('\n')}\n`);
    writeFileSync(path.join(dir, 'docs/deep-quote.md'), `# \`tool\`\n\n${'> '.repeat(5000)}\`seed\`\n`);
  },
  // s31 D6: 3 documents of 216 KB (under the per-document limit), each line an example with three
  // misspelled parameters: 72,000 findings, a 100 MB SARIF report.
  // 12 pages of 490 lines of 10 words (58,800 words: within the run's 60,000 words of example
  // commands and each page's 5,000), 9 misspelt parameters a line: 52,920 findings.
  'many-findings': (dir) => {
    const line = 'tool +sed=1 +nme=2 +sedd=3 +seeed=4 +nam=5 +seedd=6 +nmae=7 +sede=8 +names=9\n';
    for (let i = 0; i < 12; i++) writeFileSync(path.join(dir, `docs/p${i}.md`), `# P\n\n\`\`\`bash\n${line.repeat(490)}\`\`\`\n`);
  },
  // #33 s33: 14 pages of 4,400 example lines (1.7 MB): 61,600 commands, 184,800 findings (60 such
  // pages: 62 s and 2.3 GB). Each page is read up to 5,000 words of example commands, the run up
  // to 60,000.
  'many-example-words': (dir) => {
    for (let i = 0; i < 14; i++) writeFileSync(path.join(dir, `docs/o${String(i).padStart(2, '0')}.md`), `# P\n\n\`\`\`bash\n${'tool +sed=1 +nme=2 +sedd=3\n'.repeat(4400)}\`\`\`\n`);
  },
  // #33 s33 sweep D2: pages of 4,400 reference rows each. A run keeps 40,000 rows, pages whole in
  // path order: docs/a09.md is cut, and so is docs/reference.md after it (60 such pages peaked at
  // 1.15 GB).
  'many-reference-rows': (dir) => {
    const rows = Array.from({ length: 4400 }, (_, i) => `| \`p${i}\` | int | \`0\` | d |\n`).join('');
    for (let i = 0; i < 10; i++) writeFileSync(path.join(dir, `docs/a${String(i).padStart(2, '0')}.md`), `# T\n\n### \`tool\`\n\n| Parameter | Type | Default | Description |\n| --- | --- | --- | --- |\n${rows}\n`);
  },
  // #33 s33 sweep D1: config-file examples of 12,000 keys a page. A run checks 50,000 keys, pages
  // whole in path order: the fifth page is not checked (60 such pages peaked at 0.98 GB).
  'many-config-keys': (dir) => {
    writeFileSync(path.join(dir, 'docdrift.config.json'), JSON.stringify({ commands: { tool: { config: 'tool.cli.ToolConfig' }, 'tool.yaml': { kind: 'config-file', config: 'tool.cli.ToolConfig' } } }));
    const keys = Array.from({ length: 12_000 }, (_, i) => `k${i}: 1\n`).join('');
    for (let i = 0; i < 6; i++) writeFileSync(path.join(dir, `docs/y${String(i).padStart(2, '0')}.md`), `# Y\n\n\`\`\`yaml title="tool.yaml"\n${keys}\`\`\`\n`);
  },
  // s34 sweep D4: docs/reference.md, the full `tool` table, is not parsed (a line nested 101
  // levels deep; the sweep's case spent the run's 1 MiB of large documents first, which takes 8 s):
  // every reference is partial, so `name`, a row only it holds, is not reported missing (it was,
  // and --fix wrote the row into docs/b00.md, then into the next page on the next run).
  'reference-page-not-read': (dir) => {
    const table = (rows: string): string => `### \`tool\`\n\n| Parameter | Type | Default | Description |\n| --- | --- | --- | --- |\n${rows}\n`;
    const seed = '| `seed` | int | `0` | Random seed. |\n';
    writeFileSync(path.join(dir, 'docs/b00.md'), `# B\n\n${table(seed)}`);
    writeFileSync(path.join(dir, 'docs/reference.md'), `# Reference\n\n${table(`${seed}| \`name\` | str | \`"run"\` | Name of the run. |\n`)}## Quotes\n\n${'> '.repeat(101)}x\n`);
  },
  'symlink-loop': (dir) => {
    symlinkSync('b', path.join(dir, 'a'));
    symlinkSync('a', path.join(dir, 'b'));
    symlinkSync('.', path.join(dir, 'docs/self'));
    symlinkSync('..', path.join(dir, 'docs/parent'));
    symlinkSync('loop.md', path.join(dir, 'docs/loop.md'));
  },
  // #17 item 13 / #18 item 4: documents under the size cap that take superlinear time or memory.
  'budget-setext-pairs': (dir) => hostile(dir, 'setext-pairs.md', 'a\n===\n'.repeat(170_000)),
  'budget-nested-lists': (dir) => hostile(dir, 'nested-lists.md', `${'- '.repeat(99)}x\n`.repeat(5000)),
  'budget-nested-brackets': (dir) => hostile(dir, 'nested-brackets.md', `${'['.repeat(99)}x${']'.repeat(99)}\n${`${'['.repeat(99)}\n`.repeat(5000)}`),
  'budget-pipe-table': (dir) => hostile(dir, 'pipe-table.md', `| a | b |\n| - | - |\n${`${'|'.repeat(5000)}\n`.repeat(200)}`),
  'budget-unclosed-jsx': (dir) => hostile(dir, 'unclosed-jsx.mdx', `<div>\n${'<a b="c">\n'.repeat(100_000)}`),
  'budget-many-headings': (dir) => hostile(dir, 'many-headings.md', Array.from({ length: 25_000 }, (_, i) => `## h${i}\n`).join('')),
  'budget-setext-underlines': (dir) => hostile(dir, 'setext-underlines.md', `a\n${'=\n'.repeat(30_000)}`),
  'budget-star-underscore': (dir) => hostile(dir, 'star-underscore.md', `${'*_'.repeat(50_000)}\n\n\`\`\`bash\ntool +sed=1\n\`\`\`\n`),
  // #30: reStructuredText read by docdrift's own reader: indentation nested 1,400 levels (a list,
  // definitions, block quotes), unclosed inline markup, a grid table 1,500 columns wide.
  'budget-rst-hostile': (dir) => {
    hostile(dir, 'deep.rst', Array.from({ length: 1400 }, (_, i) => `${' '.repeat(i)}- x`).join('\n'));
    hostile(dir, 'defs.rst', Array.from({ length: 1400 }, (_, i) => `${' '.repeat(i)}x`).join('\n'));
    hostile(dir, 'inline.rst', `${'``a *b `c :r:`d '.repeat(40_000)}\n`);
    hostile(dir, 'wide.rst', `+${'-+'.repeat(1500)}\n${`|${' |'.repeat(1500)}\n`.repeat(100)}+${'-+'.repeat(1500)}\n`);
  },
  // #33 item 1: two documents over budget in one run (a fresh worker's ids must follow on).
  'budget-two-slow-documents': (dir) => {
    writeFileSync(path.join(dir, 'docs/a.md'), `# tool\n\nNotes about tool.\na\n${'=\n'.repeat(30_000)}`);
    writeFileSync(path.join(dir, 'docs/b.md'), `# tool\n\n${slowLists(100_000)}`);
  },
  // #33 item 2: the Python partial evaluator on values that double in a loop, and on many loops.
  'python-eval-doubling': (dir) => {
    const loop = (n: number): string => `for _ in [${Array(n).fill('1').join(', ')}]:`;
    writeFileSync(path.join(dir, 'tool/strings.py'), `import argparse\ns = "ab"\n${loop(30)}\n    s = s + s\nparser = argparse.ArgumentParser()\nparser.add_argument("--x" + s)\n`);
    writeFileSync(path.join(dir, 'tool/lists.py'), `import argparse\nl = [1, 2]\n${loop(30)}\n    l = l + l\nparser = argparse.ArgumentParser()\n`);
    writeFileSync(path.join(dir, 'tool/split.py'), `import argparse\ns = "ab"\n${loop(27)}\n    s = s + s\nt = s.replace("a", "bb").split("b")\nu = f"{s}{s}"\nparser = argparse.ArgumentParser()\n`);
  },
  'python-eval-many-loops': (dir) => {
    const functions = Array.from({ length: 200 }, (_, i) => `def f${i}():\n    p = argparse.ArgumentParser()\n    for a in L:\n        for b in L:\n            x = a\n`);
    writeFileSync(path.join(dir, 'tool/loops.py'), `import argparse\nL = [${Array.from({ length: 512 }, (_, i) => i).join(', ')}]\n${functions.join('')}`);
  },
  // #33 fresh sweep D1: a module-level loop that spends the file's budget before main() builds its parser.
  'python-eval-budget-literal': (dir) => {
    const L = `[${Array.from({ length: 512 }, (_, i) => i).join(', ')}]`;
    writeFileSync(path.join(dir, 'tool/cli.py'), `import argparse\nn = 0\nfor a in ${L}:\n    for b in ${L}:\n        for c in ${L}:\n            n = n + 1\n\n\n` +
      `def main():\n    parser = argparse.ArgumentParser(prog="tool")\n    parser.add_argument("--seed", default=0, help="Random seed.")\n` +
      `    parser.add_argument("--name", default="run", help="Name of the run.")\n    parser.parse_args()\n`);
  },
  // #33 fresh sweep D4: argparse sub-parsers nested 2,000 deep (35 s on main: every name's prefixes rebuilt).
  'python-subparser-nest': (dir) => {
    let s = 'import argparse\n\n\ndef main():\n    p0 = argparse.ArgumentParser(prog="tool")\n    p0.add_argument("--seed", default=0, help="Random seed.")\n    p0.add_argument("--name", default="run", help="Name of the run.")\n';
    for (let i = 1; i < 2000; i++) s += `    s${i} = p${i - 1}.add_subparsers()\n    p${i} = s${i}.add_parser("c${i}")\n`;
    writeFileSync(path.join(dir, 'tool/cli.py'), `${s}    p0.parse_args()\n`);
  },
  // #33 fresh sweep D6: setup.py listing 100,000 console scripts of one function (48 s on main);
  // 40,000 here (0.9 MB), under the 1 MB limit for one Python source (s23: a larger one is not read).
  'python-setup-many-scripts': (dir) => {
    rmSync(path.join(dir, 'pyproject.toml'));
    const scripts = Array.from({ length: 40_000 }, (_, i) => `"t${i}=tool.cli:main"`).join(', ');
    writeFileSync(path.join(dir, 'setup.py'), `from setuptools import setup\nsetup(name="tool", entry_points={"console_scripts": ["tool=tool.cli:main", ${scripts}]})\n`);
  },
  // #33 item 3: expressions nested thousands deep in modules that import a CLI framework.
  // s22 sweep D2: tree-sitter-python's scanner is quadratic in a run of comment lines (5,000: 42 s).
  // A 10,000-line commented-out block above the config class, which gains a field the reference lacks.
  'python-comment-run': (dir) => {
    const block = Array.from({ length: 10_000 }, (_, i) => `# ${i}: ${'x'.repeat(72)}\n`).join('');
    const cli = readFileSync(path.join(dir, 'tool/cli.py'), 'utf8').replace('class ToolConfig(BaseModel):\n', `${block}class ToolConfig(BaseModel):\n    extra: int = Field(default=3, description="Extra.")\n`);
    writeFileSync(path.join(dir, 'tool/cli.py'), cli);
  },
  // s22 sweep D3: Python modules whose cost no construct cap bounds (a 2 MB implicit concatenation of
  // 500,000 literals: 10 s and 650 MB; a 4 MB int list: 44 s, 1 GB). One source is bounded by size
  // and by tokens, the large sources of a run by a token budget; a module of data is skipped quietly.
  'python-large-modules': (dir) => {
    writeFileSync(path.join(dir, 'tool/big_concat.py'), `import argparse\nHELP = ${Array(500_000).fill('"a"').join(' ')}\n`);
    writeFileSync(path.join(dir, 'tool/int_list.py'), `import os\nX = [${Array.from({ length: 300_000 }, (_, i) => i % 10).join(', ')}]\n`);
    writeFileSync(path.join(dir, 'tool/table.py'), `TABLE = {${Array.from({ length: 100_000 }, (_, i) => `"k${i}": ${i}`).join(', ')}}\n`);
    for (const name of ['gen_a', 'gen_b', 'gen_c']) writeFileSync(path.join(dir, `tool/${name}.py`), `class Gen:\n    pass\n\nX = ${Array(90_000).fill('"a"').join(' ')}\n`);
  },
  // #33 sweep s26 D6: `class C{i}(C{i-1})` 5,000 deep before the config class (quadratic inherited fields on main).
  'python-inheritance-chain': (dir) => {
    const file = path.join(dir, 'tool/cli.py');
    const [imports, ...rest] = readFileSync(file, 'utf8').split('\n');
    const chain = Array.from({ length: 5000 }, (_, i) => `class C${i}(${i === 0 ? 'BaseModel' : `C${i - 1}`}):\n    f${i}: int = ${i}\n`).join('\n');
    writeFileSync(file, `${imports}\n\n\n${chain}\n${rest.join('\n')}`);
  },
  // #33 sweep s27 D11: 3,000 pydantic classes each subclassing one 3,000-field class (n x m inherited fields on main); the config class too.
  // #33 s28 sweep D9: pydantic models nested 9 deep, 7 fields each (7^9 = 40 M dotted keys), typing 13 fields of `ToolConfig`; the reference documents one leaf (on main: over 60 s into a V8 heap abort).
  'python-nested-keys-product': (dir) => {
    const file = path.join(dir, 'tool/cli.py');
    const k = 7;
    const levels = Array.from({ length: 9 }, (_, i) => 8 - i).map((i) => `class M${i}(BaseModel):\n${Array.from({ length: k }, (_, j) => `    f${j}: M${i + 1} = M${i + 1}()\n`).join('')}`);
    const models = [`class M9(BaseModel):\n${Array.from({ length: k }, (_, j) => `    x${j}: int = 0\n`).join('')}`, ...levels].join('\n\n');
    const fields = ['m', ...Array.from({ length: 12 }, (_, i) => `n${i}`)].map((f) => `    ${f}: M0 = M0()\n`).join('');
    const source = readFileSync(file, 'utf8').replace('\n\nclass ToolConfig(BaseModel):\n', `\n\n${models}\n\n\nclass ToolConfig(BaseModel):\n${fields}`);
    writeFileSync(file, source);
    const reference = path.join(dir, 'docs/reference.md');
    writeFileSync(reference, `${readFileSync(reference, 'utf8').trimEnd()}\n| \`m${'.f0'.repeat(9)}\` | M9 | \`M9()\` | A leaf. |\n`);
  },
  // #33 s28 sweep2 D4: a 4.8 MB plain-JavaScript bin (559 MB peak RSS in the TypeScript facts worker).
  'ts-large-js-bin': (dir) => {
    const parts = ['"use strict";', 'const { Command } = require("commander");'];
    for (let i = 0; i < 40_000; i++) parts.push(`function helper${i}(a, b) { if (a > ${i}) { return b.map((x) => x + ${i}).filter(Boolean); } return [a, b, "s${i}"]; }`);
    parts.push('const program = new Command("tsapp");', 'program.option("--port <n>", "Port.", "80");', 'program.option("--host <h>", "Host.", "x");', 'program.parse();');
    mkdirSync(path.join(dir, 'bin'), { recursive: true });
    writeFileSync(path.join(dir, 'bin/cli.js'), `${parts.join('\n')}\n`);
  },
  // #33 F11: a 57 MB plain-JavaScript bin, under the 64 MB read limit (read, then the worker's heap limit: 19.6 s, 771 MB).
  'ts-huge-js-bin': (dir) => {
    mkdirSync(path.join(dir, 'bin'), { recursive: true });
    writeFileSync(path.join(dir, 'bin/cli.js'), 'x=1;\n'.repeat(12_000_000));
  },
  'python-inheritance-fan': (dir) => {
    const file = path.join(dir, 'tool/cli.py');
    const [imports, ...rest] = readFileSync(file, 'utf8').split('\n');
    const big = `class Big(BaseModel):\n${Array.from({ length: 3000 }, (_, i) => `    p${i}: int = 0\n`).join('')}`;
    const fan = Array.from({ length: 3000 }, (_, i) => `class D${i}(Big):\n    x: int = 0\n`).join('\n');
    writeFileSync(file, `${imports}\n\n\n${big}\n\n${fan}\n${rest.join('\n').replace('class ToolConfig(BaseModel):', 'class ToolConfig(Big):')}`);
  },
  // #33 sweep s27 D1: an argparse module with 20,000 module-level lists, none changed, and 500 KB of comments (one regex per list over the module on main: 16 s CPU).
  'python-argparse-many-containers': (dir) => {
    const lists = Array.from({ length: 20_000 }, (_, i) => `c${i} = []`).join('\n');
    const comments = Array(2500).fill(`# ${'x'.repeat(200)}`).join('\n');
    writeFileSync(path.join(dir, 'tool/cli.py'), `import argparse\n\n${lists}\n${comments}\n\n\ndef main():\n    p = argparse.ArgumentParser(prog="tool")\n    p.add_argument("--seed", type=int, default=0)\n    p.add_argument("--name", default="run")\n    p.parse_args()\n`);
  },
  // #33 sweep s27 D2: a local dict given 1,800 keys by `d["kI"] = 1`, splatted into 1,800 settings constructions (N x N tree look-ups on main: 22 s CPU).
  'python-settings-splat-many': (dir) => {
    const stores = Array.from({ length: 1800 }, (_, i) => `d["k${i}"] = 1`).join('\n');
    writeFileSync(path.join(dir, 'tool/settings.py'), `from pydantic_settings import BaseSettings\n\nclass AppSettings(BaseSettings):\n    seed: int = 0\n\nd = {"seed": 1}\n${stores}\n${Array(1800).fill('AppSettings(**d)').join('\n')}\n`);
  },
  // #33 sweep s27 O1: 6,000 settings classes each built once, named in six 540 KB modules of comments (two regexes per class and file on main).
  'python-settings-many-classes': (dir) => {
    const n = 6000;
    const classes = Array.from({ length: n }, (_, i) => `class S${i}(BaseSettings):\n    a${i}: int = 0\n`).join('\n');
    const calls = Array.from({ length: n }, (_, i) => `S${i}(a${i}=1)`).join('\n');
    writeFileSync(path.join(dir, 'tool/settings.py'), `from pydantic_settings import BaseSettings\n\n${classes}\n${calls}\n`);
    const notes = `from tool.settings import S0\n# ${Array.from({ length: n }, (_, i) => `S${i}`).join(' ')}\n${Array(2500).fill(`# ${'x'.repeat(200)}`).join('\n')}\nX = 1\n`;
    for (let k = 0; k < 6; k++) writeFileSync(path.join(dir, `tool/notes${k}.py`), notes);
  },
  // #33 sweep s27 O1: 600 typer factory functions and 600 factory methods, and 12,000 module-level calls of them (every factory looked at every assignment on main).
  'python-many-flag-modules': (dir) => {
    // Twelve ordinary modules under the 256 KB large-source threshold, each importing argparse.
    const lines = ['import argparse', 'parser = argparse.ArgumentParser()'];
    for (let i = 0; lines.join('\n').length < 240_000; i++) lines.push(`X${i} = 1 < 2 < 3 < 4 < 5 < 6 < 7 < 8`);
    for (let k = 0; k < 12; k++) writeFileSync(path.join(dir, `tool/flat_${String(k).padStart(2, '0')}.py`), `${lines.join('\n')}\n`);
  },
  // #33 s45 sweep G2: sixty 165 KB modules of 100 pydantic classes of 100 fields, each under the per-file limits (19-27 s and 651-774 MB on main).
  // The config class's base is in the largest of them, which the entry module imports: read first.
  'python-many-config-classes': (dir) => {
    mkdirSync(path.join(dir, 'models'), { recursive: true });
    writeFileSync(path.join(dir, 'models/__init__.py'), '');
    const fields = Array.from({ length: 100 }, (_, k) => `    f${k}: int = 0\n`).join('');
    for (let i = 0; i < 60; i++) {
      const classes = Array.from({ length: 100 }, (_, j) => `class C${i}_${j}(BaseModel):\n${fields}`).join('');
      const shared = i === 59 ? '\n\nclass Shared(BaseModel):\n    seed: int = Field(default=0, description="Random seed.")\n' : '';
      writeFileSync(path.join(dir, `models/m${i}.py`), `from pydantic import BaseModel, Field\n${classes}${shared}`);
    }
    const cli = path.join(dir, 'tool/cli.py');
    const source = readFileSync(cli, 'utf8')
      .replace('from pydantic import BaseModel, Field\n', 'from pydantic import BaseModel, Field\nfrom models.m59 import Shared\n')
      .replace('class ToolConfig(BaseModel):\n    seed: int = Field(default=0, description="Random seed.")\n', 'class ToolConfig(Shared):\n');
    writeFileSync(cli, source);
  },
  // #33 K5-heavy: 110 modules of 10 pydantic classes × 100 `Annotated[Optional[int], Field(default, ge, le, alias, description)]`
  // fields (18 MB): the 100,000-field budget read 100 of them, 23 s CPU and 950 MB (about 9.5 KB per field, 1.4 KB for `fN: int = 0`).
  'python-heavy-config-fields': (dir) => {
    mkdirSync(path.join(dir, 'tool/models'), { recursive: true });
    writeFileSync(path.join(dir, 'tool/models/__init__.py'), '');
    const field = (j: number) => `    f${j}: Annotated[Optional[int], Field(default=${j}, ge=0, le=1000, alias="F${j}", description="Field ${j} of the model, in units of things; see the reference.")] = ${j}\n`;
    const fields = Array.from({ length: 100 }, (_, j) => field(j)).join('');
    for (let m = 0; m < 110; m++) {
      const classes = Array.from({ length: 10 }, (_, c) => `class M${m}_${c}(BaseModel):\n    """Model ${c} of module ${m}."""\n${fields}\n`).join('');
      writeFileSync(path.join(dir, `tool/models/m${m}.py`), `from typing import Annotated, Optional\nfrom pydantic import BaseModel, Field\n\n${classes}`);
    }
    const readme = path.join(dir, 'README.md');
    writeFileSync(readme, readFileSync(readme, 'utf8').replace('+seed=1', '+sed=1'));
  },
  // #33 sweep s31 D5: a commander bin importing twenty 240 KB modules of dense code (2 million tokens; the TypeScript worker hit its heap limit after ~20 s).
  'ts-many-dense-modules': (dir) => {
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'tool', version: '1.0.0', bin: { tool: 'src/cli.ts' }, dependencies: { commander: '^12.0.0' } }));
    const lines = ["import { Command } from 'commander';"];
    for (let i = 0; lines.join('\n').length < 240_000; i++) lines.push(`export const x${i} = { a: [1, 2, 3], b: "s${i}", c: (n: number) => n + ${i} };`);
    const body = `${lines.join('\n')}\n`;
    for (let k = 0; k < 20; k++) writeFileSync(path.join(dir, `src/m${k}.ts`), body);
    const imports = Array.from({ length: 20 }, (_, k) => `import './m${k}';`).join('\n');
    writeFileSync(path.join(dir, 'src/cli.ts'), `${imports}\nimport { Command } from 'commander';\nconst program = new Command('tool');\nprogram.option('--seed <n>', 'Random seed', '0');\nprogram.parse();\n`);
  },
  // #33 sweep s31 D5, mixed: ts-many-dense-modules next to six of python-many-flag-modules' modules
  // (both extractions near their own token budgets at once peaked at 486-518 MB).
  'mixed-flag-and-typescript-modules': (dir) => {
    GENERATORS['ts-many-dense-modules']!(dir);
    const lines = ['import argparse', 'parser = argparse.ArgumentParser()'];
    for (let i = 0; lines.join('\n').length < 240_000; i++) lines.push(`X${i} = 1 < 2 < 3 < 4 < 5 < 6 < 7 < 8`);
    for (let k = 0; k < 6; k++) writeFileSync(path.join(dir, `tool/flat_${k}.py`), `${lines.join('\n')}\n`);
  },
  'python-typer-factory-assigns': (dir) => {
    const n = 600;
    const body = (indent: string) => [`${indent}app = typer.Typer()`, '', `${indent}@app.command()`, `${indent}def hello(x: int = 0):`, `${indent}    pass`, '', `${indent}return app`, ''].join('\n');
    const functions = Array.from({ length: n }, (_, i) => `def mk${i}():\n${body('    ')}`).join('\n');
    const methods = Array.from({ length: n }, (_, i) => `class F${i}:\n    def build(self):\n${body('        ')}`).join('\n');
    writeFileSync(path.join(dir, 'tool/apps.py'), `import typer\n\n${functions}\n${methods}\n`);
    const calls = Array.from({ length: 12_000 }, (_, j) => (j % 2 === 0 ? `x${j} = mk${(j / 2) % n}()` : `x${j} = F${((j - 1) / 2) % n}().build()`)).join('\n');
    writeFileSync(path.join(dir, 'tool/data.py'), `import typer\nfrom tool.apps import *\n\n${calls}\n`);
    const cli = path.join(dir, 'tool/cli.py');
    writeFileSync(cli, `from tool import apps, data\n${readFileSync(cli, 'utf8')}`);
  },
  // #33 s27 sweep2 D5: a 589 KB mint.json of 60,001 versions beside 2,000 version folders (each
  // folder compared with every version on main: 18.2 s CPU); the first 1,000 folders are listed as
  // older versions and skipped, the others are not listed and are checked.
  'versions-mintlify-many': (dir) => {
    for (let i = 0; i < 2000; i++) {
      mkdirSync(path.join(dir, `docs/v${i}`), { recursive: true });
      writeFileSync(path.join(dir, `docs/v${i}/a.md`), '# A\n');
    }
    const versions = ['v2001', ...Array.from({ length: 1000 }, (_, i) => `v${i}`), ...Array.from({ length: 59_000 }, (_, i) => `w${i}`)];
    writeFileSync(path.join(dir, 'docs/mint.json'), JSON.stringify({ versions }));
  },
  'python-deep-expressions': (dir) => {
    const deep: Record<string, string> = {
      plus: Array(2000).fill('"a"').join(' + '),
      lists: `${'['.repeat(5000)}${']'.repeat(5000)}`,
      calls: `${'f('.repeat(5000)}${')'.repeat(5000)}`,
      nots: `${'not '.repeat(5000)}True`,
      attributes: `a${'.b'.repeat(5000)}`,
    };
    for (const [name, expression] of Object.entries(deep)) {
      writeFileSync(path.join(dir, `tool/deep_${name}.py`), `import argparse\nimport click\nHELP = ${expression}\nparser = argparse.ArgumentParser()\nparser.add_argument("--x", default=${expression}, help=HELP)\n`);
    }
    writeFileSync(path.join(dir, 'tool/deep_field.py'), `from pydantic import BaseModel, Field\n\nclass Other(BaseModel):\n    v: int = Field(default=${deep.calls}, description=${deep.plus})\n`);
  },
  // #33 item 4: JSON Schema files nested 3,000 deep, and a definition that is an anyOf of 3,000 $refs to itself.
  'schema-deep-nesting': (dir) => {
    mkdirSync(path.join(dir, 'schemas'), { recursive: true });
    writeFileSync(path.join(dir, 'schemas/deep.json'), `{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"a": {"default": ${'['.repeat(3000)}${']'.repeat(3000)}}}}`);
  },
  // #33 sweep D9: the same without `$schema` (a schema by its properties) must not be dropped silently.
  'schema-deep-no-dollar-schema': (dir) => {
    mkdirSync(path.join(dir, 'schemas'), { recursive: true });
    writeFileSync(path.join(dir, 'schemas/deep.json'), `{"type": "object", "properties": {"a": {"default": ${'['.repeat(3000)}${']'.repeat(3000)}}}}`);
  },
  'schema-anyof-refs': (dir) => {
    mkdirSync(path.join(dir, 'schemas'), { recursive: true });
    const properties = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`p${i}`, { $ref: '#/definitions/loop' }]));
    const schema = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', definitions: { loop: { anyOf: Array(3000).fill({ $ref: '#/definitions/loop' }) } }, properties };
    writeFileSync(path.join(dir, 'schemas/anyof.json'), JSON.stringify(schema));
  },
  // #33 item 5: a package.json with 100,000 bins (3.3 MB), and one with 20,000 (under the size cap).
  'package-many-bins': (dir) => {
    const bins = (n: number): string => JSON.stringify({ name: 'tool', version: '1.0.0', bin: Object.fromEntries(Array.from({ length: n }, (_, i) => [`cmd${i}`, `bin/cmd${i}.js`])) }, null, 2);
    writeFileSync(path.join(dir, 'package.json'), bins(100_000));
    mkdirSync(path.join(dir, 'sub'), { recursive: true });
    writeFileSync(path.join(dir, 'sub/package.json'), bins(20_000));
  },
  // s23 sweep D3/D4: 1,000 commands per manifest, in 130 package.json and 150 pyproject.toml files
  // (130,000 bins crashed the run: a spread of them overflowed the stack; 150,000 scripts took 20 s).
  'package-many-manifests': (dir) => {
    for (let p = 0; p < 130; p++) {
      mkdirSync(path.join(dir, `pk/p${p}`), { recursive: true });
      writeFileSync(path.join(dir, `pk/p${p}/package.json`), JSON.stringify({ name: `p${p}`, version: '1.0.0', bin: Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`c${p}_${i}`, `b/${i}.js`])) }));
    }
    for (let p = 0; p < 150; p++) {
      mkdirSync(path.join(dir, `py/p${p}`), { recursive: true });
      writeFileSync(path.join(dir, `py/p${p}/pyproject.toml`), `[project]\nname = "p${p}"\nversion = "1"\n\n[project.scripts]\n${Array.from({ length: 1000 }, (_, i) => `s${p}_${i} = "tool.cli:main"\n`).join('')}`);
    }
  },
  // #33 sweep D7: documents over the budget one after another (the run's overrun budget).
  'budget-many-slow-documents': (dir) => {
    for (let i = 0; i < 6; i++) writeFileSync(path.join(dir, `docs/slow${i}.md`), `# tool\n\nNotes about tool.\n\n${slowLists(100_000)}`);
  },
  // #33 fresh sweep (s18) D1: thirty pages each within its own parse budget but slow for its size (10 KB of nested lists, ~0.75 s each).
  'budget-many-underbudget-documents': (dir) => {
    for (let i = 0; i < 30; i++) writeFileSync(path.join(dir, `docs/s${i}.md`), `# b\n${slowLists(10_000)}\n\`\`\`bash\ntool +sed=1\n\`\`\`\n`);
  },
  // #33 s25 sweep D6: three 303 KB pages of 10,000 small tables each (micromark: 7-10 s of CPU; built directly now).
  'budget-many-small-tables': (dir) => {
    const tables = '| a | b |\n| - | - |\n| c | d |\n\n'.repeat(10_000);
    for (let i = 1; i <= 3; i++) writeFileSync(path.join(dir, `docs/t${i}.md`), `# x\n\n${tables}\n\n\`\`\`bash\ntool +sed=1\n\`\`\`\n`);
  },
  // #33 s41 sweep D4: one paragraph of 50,000 unclosed `[` between words (200 KB), the example
  // after it: micromark's text resolver spliced each run of `data` events out of the event array,
  // the square of the events (80 KB: 5.8 s), and the page ran over its 6 s budget unread.
  // patches/micromark+4.0.3.patch merges the runs in one pass: the page is read in about 3 s.
  'budget-bracket-paragraph': (dir) => {
    writeFileSync(path.join(dir, 'docs/brackets.md'), `# tool\n\n${'[*a '.repeat(50_000)}\n\n\`\`\`bash\ntool +sed=1\n\`\`\`\n`);
    writeFileSync(path.join(dir, 'docs/escapes.md'), `# tool\n\n${'\\[ a &amp; b '.repeat(15_000)}\n\n\`\`\`bash\ntool +sed=2\n\`\`\`\n`);
  },
  // #33 s41 sweep D4: a page whose one part that cannot be cut parses in time that grows faster
  // than its length (micromark: a blockquote of 60,000 lazy setext lines) ran to the 6 s budget
  // per document (9-10 s of CPU with the V8 helper threads); the probe of its first 48 KB stops it
  // after about 2.2 s. Unclosed `<details>` blocks, each with a list, were quadratic too (the edit
  // map, patched since): 4,000 of them (108 KB) are read now.
  'budget-uncuttable-setext': (dir) => {
    writeFileSync(path.join(dir, 'docs/quote.md'), `# tool\n\n${'> a\n=\n'.repeat(60_000)}`);
    writeFileSync(path.join(dir, 'docs/usage.md'), '# tool\n\n```bash\ntool +sed=1\n```\n');
  },
  'budget-uncuttable-details': (dir) => {
    writeFileSync(path.join(dir, 'docs/details.md'), `# tool\n\n${'<details>\n<summary>a\n\n* b\n\n'.repeat(4_000)}`);
    writeFileSync(path.join(dir, 'docs/usage.md'), '# tool\n\n```bash\ntool +sed=1\n```\n');
  },
  // A long page with link reference definitions (parsed whole, not in pieces) and a list in
  // each of its 2,000 sections, as a keep-a-changelog page has: micromark's document tokenizer
  // rewrote the whole event list each time a container closed (micromark-util-edit-map), the
  // square of the page (13.6 s for 338 KB), and the page ran over its 6 s budget unread.
  'long-page-link-definitions': (dir) => {
    const sections: string[] = [];
    for (let i = 1; i <= 2000; i++) sections.push(`## [Recipe ${i}]\n\n### Steps\n\n- Set \`--cache-dir\` from \`TOOL_CACHE\` (see [issue ${i}]).\n`);
    const links = Array.from({ length: 2000 }, (_, i) => `[recipe ${i + 1}]: https://example.com/recipes/${i + 1}\n[issue ${i + 1}]: https://example.com/issues/${i + 1}`);
    writeFileSync(path.join(dir, 'docs/guide.md'), `# tool\n\n\`\`\`bash\ntool +sed=1\n\`\`\`\n\n${sections.join('\n')}\n${links.join('\n')}\n`);
  },
  // #33 s41 sweep D4: one 396 KB paragraph of GFM `www.` autolinks with `_` (36,000 emphasis runs,
  // under the limit per 8 KB): micromark resolves a paragraph's runs against each other, the
  // square of their number, and the page ran to its 6 s budget unread (9 s of CPU in all).
  // #33 s43: a block quote of 15,000 lazy lines (micromark checked each against every event back to the paragraph's start).
  'budget-lazy-quote-lines': (dir) => {
    writeFileSync(path.join(dir, 'docs/notes.md'), `# tool\n\n> Note: ${'a line of a note\n'.repeat(15_000)}\n\`\`\`bash\ntool +sed=1\n\`\`\`\n`);
  },
  // #33 s42 sweep E2: two pages of 100,000 `- a` items, each filling the worker's heap.
  'budget-dense-list-pages': (dir) => {
    // 70,000 items a page (100,000 until s46): both pages stay under the run's 150,000 lines
    // (MAX_PARSED_LINES), so the probe and the heap limit are what stop them.
    for (const name of ['a', 'b']) writeFileSync(path.join(dir, `docs/${name}.md`), `# tool\n\nRun \`tool +seed=1\`.\n\n${'- a\n'.repeat(70_000)}`);
    writeFileSync(path.join(dir, 'docs/c.md'), '# tool\n\n```bash\ntool +sed=1\n```\n');
  },
  'budget-emphasis-paragraph': (dir) => {
    writeFileSync(path.join(dir, 'docs/links.md'), `# tool\n\n${'www.a_b_c_ '.repeat(36_000)}\n\n\`\`\`bash\ntool +sed=1\n\`\`\`\n`);
  },
  // #33 s24 sweep D8: 15,000 tiny pages of a table each that name the command (30 s: each page
  // costs a few ms to parse, however short).
  'many-tiny-pages': (dir) => {
    const page = '# tool\n\n`tool +seed=1`\n\n| Parameter | Description |\n|---|---|\n| `seed` | s |\n| `name` | n |\n| `nme` | n |\n';
    for (let j = 0; j < 100; j++) {
      mkdirSync(path.join(dir, `docs/d${j}`), { recursive: true });
      for (let i = 0; i < 150; i++) writeFileSync(path.join(dir, `docs/d${j}/n${i}.md`), page);
    }
  },
  // #33 s23 sweep O1: slow pages whose paths sort before the reference's spent the run's parse
  // bounds first, so the reference (a few hundred bytes) was skipped and the run exited 0.
  'budget-slow-pages-before-reference': (dir) => {
    for (let i = 0; i < 8; i++) writeFileSync(path.join(dir, `docs/a${i}.md`), `# tool\n\nNotes about tool.\n\n${slowLists(60_000)}`);
    const reference = readFileSync(path.join(dir, 'docs/reference.md'), 'utf8');
    writeFileSync(path.join(dir, 'docs/reference.md'), `${reference.trimEnd()}\n| \`stale_param\` | int | \`1\` | Removed from the code. |\n`);
  },
  // #33 fresh sweep (s18) D2: one 965 KB page of 32 slow pieces (13.3 s before its warning), and a table of 999 columns (890 KB, 11.6-17.2 s).
  'budget-one-page-slow-pieces': (dir) => {
    const pieces = Array.from({ length: 32 }, (_, i) => `# s${i}\n\n${slowLists(30_000)}\n`).join('');
    writeFileSync(path.join(dir, 'docs/a.md'), `${pieces}\n\n\`\`\`bash\ntool +sed=1\n\`\`\`\n`);
  },
  'budget-table-999-columns': (dir) => {
    const table = `### \`tool\`\n\n|${' c |'.repeat(999)}\n|${'-|'.repeat(999)}\n${`|${'x|'.repeat(999)}\n`.repeat(440)}`;
    writeFileSync(path.join(dir, 'docs/a.md'), `${table}\n\n\`\`\`bash\ntool +sed=1\n\`\`\`\n`);
  },
  // #33 fresh sweep (s18) D4: five ordinary 500 KB reference tables of 30,000 rows (25-31 s, 693-726 MB before).
  'budget-many-large-documents': (dir) => {
    // 29,000 rows each: the five pages stay under the run's 150,000 lines (MAX_PARSED_LINES), so
    // what this case tests is the limit on large documents, not that one.
    for (let k = 0; k < 5; k++) {
      const rows = Array.from({ length: 29_000 }, (_, i) => `| \`p${k}_${i}\` | d |\n`).join('');
      writeFileSync(path.join(dir, `docs/t${k}.md`), `### \`tool\`\n\n| Parameter | Description |\n| --- | --- |\n${rows}`);
    }
  },
  // #33 s27 sweep D1: a Default cell of 1,500 backticks then 6,000 letters (7.5 KB): the code-span
  // regex that read documented defaults was cubic in it (over 60 s in the rules phase).
  'rules-default-cell-backticks': (dir) => {
    writeFileSync(
      path.join(dir, 'docs/reference.md'),
      `# Reference\n\n### \`tool\`\n\n| Parameter | Type | Default | Description |\n| --- | --- | --- | --- |\n| \`seed\` | int | ${'`'.repeat(1500)}${'a'.repeat(6000)} | Random seed. |\n| \`name\` | str | \`"run"\` | Name of the run. |\n`,
    );
  },
  // #33 s27 sweep D2: a console-script target with 60,000 blanks before its last character (a
  // 61 KB pyproject.toml): stripping extras with /\s*\[.*\]\s*$/ was quadratic (26 s of model).
  'entry-point-blank-run': (dir) => {
    writeFileSync(path.join(dir, 'pyproject.toml'), `[project]\nname = "tool"\nversion = "1.0.0"\n\n[project.scripts]\ntool = "tool.cli:main${' '.repeat(60_000)}x"\n`);
  },
  // #33 s27 sweep D3: a commander flag `--a` + 180,000 dashes: its camel-case name was found with a
  // regex quadratic in a dash run.
  'ts-flag-dash-run': (dir) => {
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), '{ "name": "packgen", "version": "1.0.0", "type": "module", "bin": { "packgen": "dist/cli.js" } }\n');
    writeFileSync(
      path.join(dir, 'src/cli.ts'),
      `import { Command } from 'commander';\nconst program = new Command().name('packgen');\nprogram.option('--minify', 'Minify the output').option('--a${'-'.repeat(180_000)}', 'odd');\nawait program.parseAsync(process.argv);\n`,
    );
    writeFileSync(path.join(dir, 'docs/packgen.md'), '# packgen\n\n## `packgen`\n\n| Option | Description |\n| --- | --- |\n| `--minify` | Minify the output |\n\n```sh\npackgen --minify --bogus\n```\n');
  },
  // #33 s27 sweep2 D3: 2,000 config-file commands and a page of 10,000 YAML blocks with an info
  // string: one RegExp was compiled per command name per block (model 16 s, 19.8 s CPU).
  'config-file-names-by-block': (dir) => {
    const commands: Record<string, unknown> = { tool: { config: 'tool.cli.ToolConfig' } };
    for (let i = 0; i < 2000; i++) commands[`c${i}.yaml`] = { kind: 'config-file', config: 'tool.cli.ToolConfig' };
    writeFileSync(path.join(dir, 'docdrift.config.json'), JSON.stringify({ commands }));
    writeFileSync(path.join(dir, 'docs/blocks.md'), `# Blocks\n\nUse \`tool\` and c1.yaml.\n\n${'```yaml x\nseed: 1\n```\n\n'.repeat(10_000)}`);
  },
  // #33 fresh sweep D5: fire.Fire({...}) of 100,000 keys (1.3 GB on main) and docopt with 5,000
  // usage lines of 50 options (19 s); 20,000 keys and 1,200 lines here, under the size limits of one
  // Python source (s23: larger modules are not parsed at all, see python-large-modules).
  // s28 sweep D3: decli `*S` splices three deep, 40 x 40 x 40 x 40 argument specs from a 2 KB module (35 s CPU, 1.6 GB, then a
  // stack overflow on the main thread, where flag files under 512 KB were read with no budget): now in the flags worker, bounded.
  'python-decli-splice-fan': (dir) => {
    const list = (name: string, items: string[]) => `${name} = [${items.join(', ')}]\n`;
    const s1 = list('S1', Array.from({ length: 40 }, (_, i) => `{"name": "--o${i}", "default": 0}`));
    const splices = list('S2', Array(40).fill('*S1')) + list('S3', Array(40).fill('*S2'));
    writeFileSync(path.join(dir, 'tool/cli.py'), `from decli import cli\n\n${s1}${splices}data = {"prog": "tool", "arguments": [${Array(40).fill('*S3').join(', ')}]}\n\ndef main():\n    parser = cli(data)\n    parser.parse_args()\n`);
  },
  // s28 sweep D5: the same splices with 4 KB help texts, padded to 620 KB: the flags worker dies at its heap limit (or
  // runs past its budget first), and the main thread used to extract the same flags again, unbounded (a 4.3 GB abort).
  'python-flags-worker-heap': (dir) => {
    const help = 'x'.repeat(4000);
    const list = (name: string, items: string[]) => `${name} = [${items.join(', ')}]\n`;
    const s1 = list('S1', Array.from({ length: 20 }, (_, i) => `{"name": "--o${i}", "default": 0, "help": "${help}"}`));
    const splices = list('S2', Array(20).fill('*S1')) + list('S3', Array(20).fill('*S2'));
    const pad = Array.from({ length: 7600 }, (_, i) => `# padding line ${String(i).padStart(6, '0')} ${'.'.repeat(48)}\n`).join('');
    writeFileSync(path.join(dir, 'tool/cli.py'), `${pad}from decli import cli\n\n${s1}${splices}data = {"prog": "tool", "arguments": [${Array(20).fill('*S3').join(', ')}]}\n\ndef main():\n    parser = cli(data)\n    parser.parse_args()\n`);
  },
  // s28 (found fixing sweep D9): classes M0..M3 of 300 fields, each field of Mi typed Mi+1, under one config field: the
  // zero-config section inference built a name set per nested path (300³ sets of 300 names: 51 s, 4.5 GB with nestedKeys).
  'python-nested-sets-product': (dir) => {
    const k = 300;
    const classes = [`class M3(BaseModel):\n${Array.from({ length: k }, (_, i) => `    f${i}: int = 0\n`).join('')}`];
    for (const level of [2, 1, 0]) classes.push(`class M${level}(BaseModel):\n${Array.from({ length: k }, (_, i) => `    f${i}: M${level + 1} = M${level + 1}()\n`).join('')}`);
    const cli = path.join(dir, 'tool/cli.py');
    const text = readFileSync(cli, 'utf8');
    writeFileSync(cli, text.replace('\n\nclass ToolConfig(BaseModel):', `\n\n${classes.join('\n')}\n\nclass ToolConfig(BaseModel):\n    m: M0 = M0()`));
  },
  'python-fire-docopt-scale': (dir) => {
    const keys = Array.from({ length: 20_000 }, (_, i) => `"c${i}": f`).join(', ');
    writeFileSync(path.join(dir, 'tool/cli.py'), `import fire\ndef f(seed=0):\n    pass\ndef main():\n    fire.Fire({${keys}})\n`);
    const options = Array.from({ length: 50 }, (_, j) => `[--o${j}]`).join(' ');
    const lines = Array.from({ length: 1200 }, (_, i) => `  other c${i} ${options}\n`).join('');
    writeFileSync(path.join(dir, 'tool/other.py'), `"""Usage:\n${lines}"""\nfrom docopt import docopt\ndef main():\n    docopt(__doc__)\n`);
  },
  // s26 sweep 2 D1: a docopt usage line of 150,000 `<` with no `>` (150 KB, one string token) was
  // tokenised in quadratic time (19 s CPU).
  'python-docopt-unclosed-angle': (dir) => {
    const doc = `Usage:\n  tool ${'<'.repeat(150_000)}\n\nOptions:\n  --seed=<s>  Seed [default: 0].\n`;
    writeFileSync(path.join(dir, 'tool/cli.py'), `"""${doc}"""\nfrom docopt import docopt\n\n\ndef main():\n    docopt(__doc__)\n`);
  },
  // s26 sweep 2 D2: a docopt program of 32,000 options (714 KB), each named in the usage line and
  // listed under `Options:`, was read with linear scans per option (27 s CPU).
  // s26b sweep (helper's follow-up): `[options]` in 1,000 usage lines over 2,000 options gave 2,000,000 options (18.9 s, 1.5 GB).
  'python-docopt-options-shortcut': (dir) => {
    const names = Array.from({ length: 2000 }, (_, i) => `--o${i}`);
    const lines = Array.from({ length: 1000 }, (_, i) => `  tool c${i} [options]\n`).join('');
    const doc = `Usage:\n${lines}\nOptions:\n${names.map((n) => `  ${n}  x\n`).join('')}`;
    writeFileSync(path.join(dir, 'tool/shortcut.py'), `"""${doc}"""\nfrom docopt import docopt\n\n\ndef main():\n    docopt(__doc__)\n`);
  },
  'python-docopt-many-options': (dir) => {
    const names = Array.from({ length: 32_000 }, (_, i) => `--o${i}`);
    const doc = `Usage:\n  tool ${names.join(' ')}\n\nOptions:\n${names.map((n) => `  ${n}  x\n`).join('')}`;
    writeFileSync(path.join(dir, 'tool/cli.py'), `"""${doc}"""\nfrom docopt import docopt\n\n\ndef main():\n    docopt(__doc__)\n`);
  },
  // #33 fresh sweep defect 7: click sub-commands of 10 options each (5,000 of them, 2.4 MB: 650 MB
  // before, 468 MB after), and a typer app of 1,500 commands; argparse sub-parsers of 10 arguments
  // (5,000: 570 MB before, 463 MB after). Since s23 a module over 1 MB or 120,000 tokens is not
  // parsed at all (python-large-modules); here 1,200 commands of 4 options, still over the cap of
  // 1,000 commands per module.
  'python-click-many-commands': (dir) => {
    const options = Array.from({ length: 4 }, (_, j) => `@click.option("--o${j}", default=${j}, help="h")\n`).join('');
    const commands = Array.from({ length: 1200 }, (_, i) => `@main.command()\n${options}def c${i}(**kw):\n    pass\n`).join('');
    writeFileSync(path.join(dir, 'tool/cli.py'), `import click\n@click.group()\ndef main():\n    pass\n${commands}`);
    const typer = Array.from({ length: 1500 }, (_, i) => `@app.command()\ndef t${i}(seed: int = 0):\n    pass\n`).join('');
    writeFileSync(path.join(dir, 'tool/other.py'), `import typer\napp = typer.Typer()\n${typer}`);
  },
  'python-argparse-many-commands': (dir) => {
    const commands = Array.from({ length: 1200 }, (_, i) =>
      `    q = s.add_parser("c${i}")\n${Array.from({ length: 4 }, (_, j) => `    q.add_argument("--o${j}", default=${j}, help="h")\n`).join('')}`).join('');
    writeFileSync(path.join(dir, 'tool/cli.py'), `import argparse\ndef main():\n    p = argparse.ArgumentParser(prog="tool")\n    s = p.add_subparsers()\n${commands}    p.parse_args()\n`);
  },
  // #33 fresh sweep defect 8: a 1 MB entry module whose flag default and help constant are
  // 100,000-element list literals (605 MB before); 25,000 here (250 KB: a larger module is not
  // parsed since s23), still over the 64 KB read for one value.
  'python-big-literal': (dir) => {
    const list = `[${Array(25_000).fill('"a"').join(', ')}]`;
    writeFileSync(path.join(dir, 'tool/cli.py'), `import argparse\nHELP = ${list}\ndef main():\n    parser = argparse.ArgumentParser(prog="tool")\n` +
      `    parser.add_argument("--seed", default=${list}, help=HELP)\n    parser.add_argument("--name", default="run")\n    parser.parse_args()\n`);
  },
  // #33 fresh sweep defect 9: an oclif CLI of 2,000 command files with 50 flags each (3.6 MB of TypeScript: 916 MB before).
  'ts-oclif-many-files': (dir) => {
    mkdirSync(path.join(dir, 'src/commands'), { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'tsapp', bin: { tsapp: 'bin/run.js' }, oclif: { bin: 'tsapp', commands: './dist/commands' } }));
    const flags = Array.from({ length: 50 }, (_, j) => `    f${j}: Flags.string({ description: 'f', default: '${j}' }),`).join('\n');
    for (let i = 0; i < 2000; i++) {
      writeFileSync(path.join(dir, `src/commands/c${i}.ts`), `import { Command, Flags } from '@oclif/core';\nexport default class C${i} extends Command {\n  static flags = {\n${flags}\n  };\n  async run() {}\n}\n`);
    }
  },
  // #33 fresh sweep D10: twenty slow documents (22 s of CPU with the shorter budget per document alone).
  'budget-twenty-slow-documents': (dir) => {
    for (let i = 0; i < 20; i++) {
      const body = i % 2 ? `# a\nline\n${'=\n'.repeat(30_000)}` : `# b\n${slowLists(100_000)}`;
      writeFileSync(path.join(dir, `docs/s${i}.md`), `${body}\n\n\`\`\`bash\ntool +sed=1\n\`\`\`\n`);
    }
  },
  // #33 s39 sweep D3: two 410 KB pages, each one paragraph that cannot be cut into pieces and parses
  // ever slower (unclosed link destinations, unclosed HTML comments): 8.9 s of the worker's CPU and
  // 10.5 s wall on an idle machine (19-20 s loaded) before the first one's 6 s left the second 1 s.
  // #33 s45 sweep G1: sixteen 127 KB pages of one-character hard-break lines (693,000 lines), each
  // within every parse budget: 16-20 s idle. The run's limit on lines of documents reads three.
  // #33 s46 sweep H11: sixty 30 KB pages of 150 lines of `> - ` nested 48 deep, each within every
  // per-page budget and the run's lines (9,000), with a stale example each: the run budget of 4 s
  // plus 12 s per MiB grew with them (40 pages: 23 s wall, 80: 39 s). The run's parse ceiling
  // (RUN_PARSE_CEILING_MS, 8 s with garbage collection) stops it; one warning for the pages left.
  'budget-ceiling-quote-list-pages': (dir) => {
    for (let i = 0; i < 60; i++) {
      const lines = Array.from({ length: 150 }, (_, j) => `${'> - '.repeat(48)}a${i}_${j}\n`).join('');
      writeFileSync(path.join(dir, `docs/q${String(i).padStart(3, '0')}.md`), `# q${i}\n\nUse \`tool\`.\n\n${lines}\n\n\`\`\`bash\ntool +sed=1\n\`\`\`\n`);
    }
  },
  // #33 s46 sweep H11: ordinary pages, many of them: 200 pages of 50 KB (10 MB) of prose on long
  // lines, short lists, small tables and an example each (about 430 lines a page, 86,000 in all:
  // under the run's 150,000 lines), every one naming `tool`. Real Markdown parses at 4-10 s per MiB,
  // so 10 MB is over a minute (600 such pages: 50 s before the line limit); the ceiling reads the
  // first and leaves the rest with one warning.
  'budget-ceiling-many-prose-pages': (dir) => {
    const words = ['the', 'option', 'file', 'run', 'config', 'default', 'value', 'with', 'from', 'use', 'for', 'and', 'this', 'that', 'in', 'of'];
    const paragraph = (seed: number): string => Array.from({ length: 100 }, (_, k) => words[(seed * 7 + k * 5 + ((k * k) >> 3)) % words.length]).join(' ') + '.';
    for (let i = 0; i < 200; i++) {
      let page = `# Page ${i}\n\nUse \`tool\` here.\n\n\`\`\`bash\ntool +sed=1\n\`\`\`\n\n`;
      for (let k = 0; page.length < 50_000; k++) {
        page += `## Section ${k}\n\n${paragraph(i + k)}\n\n- item one\n- item two with \`code\`\n\n${paragraph(i * 3 + k)}\n\n| a | b |\n| - | - |\n| ${k} | ${i} |\n\n`;
      }
      writeFileSync(path.join(dir, `docs/p${String(i).padStart(3, '0')}.md`), page);
    }
  },
  // #33 s46 sweep H7: ten 117 KB pages of 600 lines of `> - ` nested 48 deep (under the large-page
  // size, each within its own budget and heap). Most of their cost is garbage collection, much of
  // it on V8's helper threads, which the worker's thread CPU clock does not see (about 1.1 s on the
  // thread and 0.8 s on the helpers a page): the thread's 9.9 s stayed under the run budget of
  // 4 s + 12 s per MiB (17.7 s), and the run spent 18.5 s of CPU. The ceiling counts both.
  'budget-ceiling-gc-heavy-pages': (dir) => {
    for (let i = 0; i < 10; i++) {
      const lines = Array.from({ length: 600 }, (_, j) => `${'> - '.repeat(48)}a${i}_${j}\n`).join('');
      writeFileSync(path.join(dir, `docs/g${i}.md`), `# g${i}\n\nUse \`tool\`.\n\n${lines}\n\n\`\`\`bash\ntool +sed=1\n\`\`\`\n`);
    }
  },
  'budget-many-short-line-pages': (dir) => {
    for (let i = 0; i < 16; i++) writeFileSync(path.join(dir, `docs/hb${String(i).padStart(2, '0')}.md`), `# Page\n\n\`\`\`bash\ntool +sed=1\n\`\`\`\n\n${'a\\\n'.repeat(43_000)}`);
  },
  'budget-two-large-hostile-pages': (dir) => {
    writeFileSync(path.join(dir, 'docs/a.md'), `# tool\n\n${'[a](<b '.repeat(60_000)}\n`);
    writeFileSync(path.join(dir, 'docs/b.md'), `# tool\n\n${'a <!-- '.repeat(60_001)}\n`);
  },
  // #33 s40 sweep D2: a page of 50,000 one-row tables that dies at the worker's heap limit (2.3 s),
  // parsed first (shorter), then a 400 KB page of `[*a ` at its full 6 s budget: 11.8 s wall.
  'budget-heap-death-then-slow-page': (dir) => {
    writeFileSync(path.join(dir, 'docs/a.md'), `# tool\n\n${'a|b\n-|-\n'.repeat(50_000)}\n`);
    // A dense list (about 40 ms per KB; `[*a ` runs until s43, which now parse near the shorter budget).
    // 45,000 items: with a.md's 100,000 lines, under the run's 150,000 lines (MAX_PARSED_LINES).
    writeFileSync(path.join(dir, 'docs/b.md'), `# tool\n\n${'- a\n'.repeat(45_000)}\n`);
  },
  // #33 sweep D8: memory of one wide table, and of many link reference definitions.
  'wide-table': (dir) => {
    const n = 20_000;
    hostile(dir, 'wide.md', `|${Array.from({ length: n }, (_, i) => ` c${i} |`).join('')}\n|${' --- |'.repeat(n)}\n|${Array.from({ length: n }, (_, i) => ` v${i} |`).join('')}\n`);
  },
  'many-definitions': (dir) => hostile(dir, 'defs.md', Array.from({ length: 20_000 }, (_, i) => `[d${i}]: https://example.com/${i}\n`).join('')),
  'budget-hash-lines': (dir) => hostile(dir, 'hash-lines.md', '#a\n'.repeat(120_000)),
  // #33 sweep s23 D1: 52,000 ESM import lines (914 KB) in one MDX block, ~15 s of acorn and Markdown before.
  'budget-mdx-esm-imports': (dir) => hostile(dir, 'esm-imports.mdx', `${'import a from "b"\n'.repeat(52_000)}\n\`\`\`bash\ntool +sed=2\n\`\`\`\n`),
  'budget-cr-deep-list': (dir) => writeFileSync(path.join(dir, 'docs/cr-deep-list.md'), `Notes about tool.\r\r${'- '.repeat(5000)}x\r`),
  // #33 fresh sweep item 1: click CommandCollection chains (quadratic on main: 5,000 links over 120 s).
  'python-click-collection-chain': (dir) => {
    let s = 'import click\n\n@click.group()\ndef g0():\n    pass\n\n@g0.command()\n@click.option("--sed")\ndef run(sed):\n    pass\n\n';
    for (let i = 1; i <= 5000; i++) s += `g${i} = click.CommandCollection(sources=[g${i - 1}])\n`;
    writeFileSync(path.join(dir, 'tool/coll.py'), s);
  },
  // #33 fresh sweep, kin of item 1: sub-command trees 5,000 deep (add_command, add_typer) and
  // argparse parents= chains; 2,500 deep here, so that each module stays under 256 KB (the three
  // 5,000-deep modules together are over the run's budget for large Python sources since s23).
  'python-nested-groups': (dir) => {
    let click = 'import click\n\n';
    for (let i = 0; i <= 2500; i++) click += `@click.group()\ndef g${i}():\n    pass\n\n`;
    for (let i = 1; i <= 2500; i++) click += `g${i}.add_command(g${i - 1})\n`;
    writeFileSync(path.join(dir, 'tool/nested_click.py'), click);
    let typer = 'import typer\n\napp0 = typer.Typer()\n\n@app0.command()\ndef run(sed: int = 0):\n    pass\n\n';
    for (let i = 1; i <= 2500; i++) typer += `app${i} = typer.Typer()\napp${i}.add_typer(app${i - 1}, name="s${i}")\n`;
    writeFileSync(path.join(dir, 'tool/nested_typer.py'), typer);
    let argparse = 'import argparse\n\np0 = argparse.ArgumentParser(add_help=False)\np0.add_argument("--sed")\n';
    for (let i = 1; i <= 2500; i++) argparse += `p${i} = argparse.ArgumentParser(parents=[p${i - 1}], add_help=False)\np${i}.add_argument("--a${i}")\n`;
    writeFileSync(path.join(dir, 'tool/parents.py'), `${argparse}parser = argparse.ArgumentParser(prog="other", parents=[p2500])\n`);
  },
  // #33 s26 sweep D5: cyclopts sub-apps chained 3,500 deep (the recursive walk overflowed the stack).
  'python-cyclopts-deep-apps': (dir) => {
    let cyclopts = 'from cyclopts import App\n\napp = App(name="deep")\na0 = app\n';
    for (let i = 1; i <= 3500; i++) cyclopts += `a${i} = App(name="c${i}")\na${i - 1}.command(a${i})\n`;
    writeFileSync(path.join(dir, 'tool/deep_cyclopts.py'), `${cyclopts}\n@a3500.default\ndef run(sed: int = 0) -> None:\n    pass\n`);
  },
  // #33 fresh sweep item 8: JSON Schema allOf/$ref chains 5,000 long, and oneOf/properties $ref cycles.
  'schema-allof-chain': (dir) => {
    mkdirSync(path.join(dir, 'schemas'), { recursive: true });
    const n = 5000;
    const chain: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) chain[`d${i}`] = { type: 'object', properties: { [`f${i}`]: { type: 'string' } }, allOf: [{ $ref: `#/definitions/d${i + 1}` }] };
    chain[`d${n}`] = { type: 'object', properties: { last: { type: 'integer' } } };
    writeFileSync(path.join(dir, 'schemas/chain.json'), JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', definitions: chain, properties: { a: { $ref: '#/definitions/d0' } } }));
    const cycle: Record<string, unknown> = {};
    for (let i = 0; i < 3000; i++) cycle[`c${i}`] = { oneOf: [{ $ref: `#/definitions/c${(i + 1) % 3000}` }, { type: 'object', properties: { x: { $ref: `#/definitions/c${(i + 7) % 3000}` } } }] };
    const properties = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`p${i}`, { $ref: `#/definitions/c${i}` }]));
    writeFileSync(path.join(dir, 'schemas/cycle.json'), JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', definitions: cycle, properties }));
  },
  // #33 fresh sweep item 7: manifests and site configs read by a fixed name that are FIFOs (a hang
  // on main), or links to /dev/zero (7–8 GB on main). The command comes from setup.cfg here.
  'manifest-fifo': (dir) => {
    rmSync(path.join(dir, 'pyproject.toml'));
    writeFileSync(path.join(dir, 'setup.cfg'), '[metadata]\nname = tool\nversion = 1.0.0\n\n[options.entry_points]\nconsole_scripts =\n    tool = tool.cli:main\n');
    for (const name of ['pyproject.toml', 'package.json', 'tsconfig.json', 'mkdocs.yml', 'docs/conf.py']) spawnSync('mkfifo', [path.join(dir, name)]);
  },
  // s29 sweep D1: a FIFO `.gitignore` in an untracked folder of a git work tree blocked discovery's
  // `git ls-files` for ever (killed by `timeout 60`): git is stopped at its limit, the tree walked.
  // s43 sweep F1: a .gitignore of thousands of wildcard rules (none matching) over 1,500 untracked
  // files with 150-character names, no git: the walk matched every path against every rule (3,000
  // rules x 1,000 files: 6 s; 10,000 x 2,000: 32 s). Now bounded (MAX_GITIGNORE_WORK), exit 2.
  'walk-gitignore-work': (dir) => {
    writeFileSync(path.join(dir, '.gitignore'), Array.from({ length: 2000 }, (_, i) => `*q${i}*z${i}*\n`).join(''));
    mkdirSync(path.join(dir, 'notes'));
    for (let i = 0; i < 1500; i++) writeFileSync(path.join(dir, 'notes', `${'n'.repeat(140)}${String(i).padStart(6, '0')}.txt`), 'x');
  },
  // s43 sweep F1 in a git work tree: a committed .gitignore of 20,000 wildcard rules over 3,000
  // untracked files. git uses CPU all along (never "stalled") and ran to its 20 s limit, then the
  // walk did the same matching again. Now git stops at the total limit of the run's git calls
  // (2 s here, by the test override) and the walk refuses the rules before compiling them, exit 2.
  'git-heavy-gitignore': (dir) => {
    writeFileSync(path.join(dir, '.gitignore'), Array.from({ length: 20_000 }, (_, i) => `*q${i}*z${i}*\n`).join(''));
    gitCommitted(dir);
    mkdirSync(path.join(dir, 'notes'));
    for (let i = 0; i < 3000; i++) writeFileSync(path.join(dir, 'notes', `${'n'.repeat(140)}${String(i).padStart(6, '0')}.txt`), 'x');
  },
  'git-fifo-gitignore': (dir) => {
    appendFileSync(path.join(dir, 'README.md'), '\n```bash\ntool +sed=1\n```\n');
    gitCommitted(dir);
    mkdirSync(path.join(dir, 'sub'));
    spawnSync('mkfifo', [path.join(dir, 'sub/.gitignore')]);
  },
  // s29 sweep D2: `--changed-since` with a FIFO `.git/info/exclude` blocked `git status` for ever.
  'git-fifo-info-exclude': (dir) => {
    gitCommitted(dir);
    writeFileSync(path.join(dir, 'README.md'), `${readFileSync(path.join(dir, 'README.md'), 'utf8')}\n# more\n`);
    mkdirSync(path.join(dir, '.git/info'), { recursive: true });
    rmSync(path.join(dir, '.git/info/exclude'), { force: true });
    spawnSync('mkfifo', [path.join(dir, '.git/info/exclude')]);
  },
  'manifest-dev-zero': (dir) => {
    for (const name of ['package.json', 'setup.cfg', 'setup.py', 'tsconfig.json', 'mkdocs.yml', 'docs/conf.py']) symlinkSync('/dev/zero', path.join(dir, name));
  },
  // #17 item 7: a committed cache entry, baseline or config that is a device or a huge file.
  'baseline-dev-zero': (dir) => symlinkSync('/dev/zero', path.join(dir, '.docdrift-baseline.json')),
  'config-dev-zero': (dir) => symlinkSync('/dev/zero', path.join(dir, 'docdrift.config.json')),
  // #33 s18 sweep (weak diagnostics): the entry module is a link out of the project; a schema the config names is refused for its depth.
  'entry-link-outside': (dir) => {
    rmSync(path.join(dir, 'tool/cli.py'));
    symlinkSync('/dev/null', path.join(dir, 'tool/cli.py'));
  },
  'schema-refused-named-in-config': (dir) => {
    mkdirSync(path.join(dir, 'schemas'), { recursive: true });
    const open = '{"a": {"type": "object", "properties": '.repeat(3000);
    writeFileSync(path.join(dir, 'schemas/s.json'), `{"$schema": "http://json-schema.org/draft-07/schema#", "title": "S", "type": "object", "properties": ${open}{}${'}}'.repeat(3000)}}`);
  },
  // #33 s37 sweep D7: the same schemas named by their titles (no file in the name), one refused for a `default` nesting `[` 3,000 deep.
  'schema-refused-named-by-title': (dir) => {
    mkdirSync(path.join(dir, 'schemas'), { recursive: true });
    writeFileSync(path.join(dir, 'schemas/opts.json'), `{"$schema": "http://json-schema.org/draft-07/schema#", "title": "MutantOptions", "type": "object", "properties": {"concurrency": {"type": "integer", "default": ${'['.repeat(3000)}${']'.repeat(3000)}}}}`);
    const open = '{"a": {"type": "object", "properties": '.repeat(3000);
    writeFileSync(path.join(dir, 'schemas/deep.json'), `{"$schema": "http://json-schema.org/draft-07/schema#", "title": "DeepOptions", "type": "object", "properties": ${open}{}${'}}'.repeat(3000)}}`);
  },
  // #33 fresh sweep defect 6: baselines of 50,000 entries (6 MB: 778 MB of memory before) and of
  // 34,000 (4 MB, under the cap: 567 MB before, every entry stale).
  'baseline-huge': (dir) => writeBaseline(dir, 50_000),
  'baseline-many-entries': (dir) => writeBaseline(dir, 34_000),
  'cache-dev-zero': (dir) => {
    mkdirSync(path.join(dir, '.docdrift-cache'));
    symlinkSync('/dev/zero', path.join(dir, '.docdrift-cache', `run-${createHash('sha1').update(dir).digest('hex').slice(0, 16)}.json`));
  },
  // #33 s30 sweep D3: forged per-file cache files under the names docdrift writes (a repository
  // can commit them), each a sparse 250 MB: on main each was read whole before its signature was
  // checked (eight: 620 MB peak).
  'cache-forged-pieces': (dir) => {
    mkdirSync(path.join(dir, '.docdrift-cache'));
    const base = `pieces-${createHash('sha1').update(dir).digest('hex').slice(0, 16)}`;
    const hex = '0123456789abcdef';
    for (const segment of ['whole', ...[...hex].map((h) => `docs-${h}`), ...[...hex].map((h) => `sources-${h}`)]) {
      const file = path.join(dir, '.docdrift-cache', `${base}-${segment}.bin`);
      writeFileSync(file, '');
      truncateSync(file, 250 * 1024 * 1024);
    }
  },
  'huge-sparse-doc': (dir) => {
    writeFileSync(path.join(dir, 'docs/huge.md'), '# tool\n');
    truncateSync(path.join(dir, 'docs/huge.md'), 4 * 1024 ** 3);
  },
  // #18 item 4: one TypeScript file nested 20,000 levels must not drop the project's other config types.
  'ts-deep-expression': (dir) =>
    writeFileSync(path.join(dir, 'src/deep.ts'), `export const x = ${'('.repeat(20_000)}1${')'.repeat(20_000)};\nexport const y = ${'['.repeat(20_000)}${']'.repeat(20_000)};\n`),
  // s28 sweep D10: a batch `set` line whose value holds a long blank run, then an example with a typo.
  'budget-bat-set-blank-run': (dir) =>
    appendFileSync(path.join(dir, 'README.md'), `\n\`\`\`bat\nset TOOL_A=${' '.repeat(100_000)}x\n\`\`\`\n\n\`\`\`bash\ntool +sed=1\n\`\`\`\n`),
  // s28 sweep D7: the env-variable scan (main thread) parses a file that reads process.env; nested past the parser's recursion.
  'ts-env-deep-expression': (dir) => {
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    writeFileSync(path.join(dir, 'src/deep.ts'), `export const a = process.env.TOOL_A;\nexport const x = ${'('.repeat(20_000)}1${')'.repeat(20_000)};\n`);
  },
  // #33 sweep of the TypeScript readers: long call chains, long sade paths, many and deep commands, many flag keys.
  'ts-option-chains': (dir) => {
    const links = (call: (i: number) => string): string => Array.from({ length: 4000 }, (_, i) => call(i)).join('\n');
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    writeFileSync(path.join(dir, 'src/cli.ts'), `import { Command } from 'commander';\nconst program = new Command('tsapp');\nprogram${links((i) => `.option('--o${i} <v>', 'opt ${i}')`)};\nprogram.parse();\n`);
    writeFileSync(path.join(dir, 'src/yargs.ts'), `import yargs from 'yargs';\nyargs(process.argv.slice(2))${links((i) => `.option('o${i}', { type: 'string' })`)}.parse();\n`);
    writeFileSync(path.join(dir, 'src/sade.ts'), `import sade from 'sade';\nconst prog = sade('other');\nprog${links((i) => `.option('--o${i}', 'opt ${i}')`)};\nprog.parse(process.argv);\n`);
    writeFileSync(path.join(dir, 'src/cac.ts'), `import { cac } from 'cac';\nconst cli = cac('third');\ncli${links((i) => `.option('--o${i} <v>', 'opt ${i}')`)};\ncli.parse();\n`);
  },
  // #33 fresh sweep D7: an options object built by 40 chained spreads, every flag documented.
  'ts-spread-chains': (dir) => {
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    const n = 40;
    const objects = Array.from({ length: n }, (_, i) => `const o${i + 1} = { ...o${i}, k${i}: { type: 'string', describe: 'd' } };`).join('\n');
    writeFileSync(path.join(dir, 'src/cli.ts'), `import yargs from 'yargs';\nconst o0 = { seed: { type: 'string', describe: 'd' } };\n${objects}\nyargs(process.argv.slice(2)).scriptName('tsapp').options(o${n}).parse();\n`);
    const rows = ['seed', ...Array.from({ length: n }, (_, i) => `k${i}`)].map((k) => `| \`--${k}\` | d |`).join('\n');
    writeFileSync(path.join(dir, 'docs/reference.md'), `${readFileSync(path.join(dir, 'docs/reference.md'), 'utf8')}\n### \`tsapp\`\n\n| Option | Description |\n| --- | --- |\n${rows}\n`);
  },
  // #33 sweep s27 D14: 3,000 interfaces each extending one 3,000-field interface, in a module the commander CLI imports a type from.
  'ts-interface-fan': (dir) => {
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    const big = `export interface Big {\n${Array.from({ length: 3000 }, (_, i) => `  p${i}?: number;\n`).join('')}}\n`;
    writeFileSync(path.join(dir, 'src/config.ts'), big + Array.from({ length: 3000 }, (_, i) => `export interface D${i} extends Big { x?: number }\n`).join(''));
    writeFileSync(
      path.join(dir, 'src/cli.ts'),
      "import { Command } from 'commander';\nimport type { D1 } from './config.js';\nconst program = new Command().name('packgen');\nprogram.option('--minify', 'Minify the output');\nawait program.parseAsync(process.argv);\nexport const c: D1 = {};\n",
    );
  },
  // #33 sweep s27 D10: 3,000 `$defs` each `allOf` one 3,000-property definition (n x m inherited fields on main).
  'schema-allof-fan': (dir) => {
    const defs: Record<string, unknown> = { Big: { type: 'object', properties: Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`p${i}`, { type: 'string' }])) } };
    for (let i = 0; i < 3000; i++) defs[`D${i}`] = { type: 'object', allOf: [{ $ref: '#/$defs/Big' }], properties: { x: { type: 'string' } } };
    writeFileSync(path.join(dir, 'config.schema.json'), JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { a: { type: 'string' } }, $defs: defs }));
  },
  // #33 fresh sweep D13: an `extends` chain 5,000 interfaces long (quadratic fields on main).
  'ts-interface-chain': (dir) => {
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    const n = 5000;
    const chain = Array.from({ length: n - 1 }, (_, i) => `export interface I${i + 1} extends I${i} { k${i + 1}?: string }`).join('\n');
    writeFileSync(path.join(dir, 'src/cli.ts'), `export interface I0 { seed: number }\n${chain}\nexport interface Config extends I${n - 1} {}\n`);
    writeFileSync(path.join(dir, 'docdrift.config.json'), JSON.stringify({ commands: { tsapp: { config: 'src/cli.ts#Config' } } }));
  },
  // #33 sweep s23 D2: conditional types nested in `true` branches, 18 and 5,000 deep (the checker's time was exponential in the depth).
  'ts-conditional-nesting': (dir) => {
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    mkdirSync(path.join(dir, 'docs'), { recursive: true });
    const nested = (name: string, n: number): string => `export type ${name} = ${'string extends string ? '.repeat(n)}string${' : never'.repeat(n)};\n`;
    writeFileSync(path.join(dir, 'src/types.ts'), nested('T', 18) + nested('Deep', 5000));
    writeFileSync(path.join(dir, 'src/cli.ts'), `import { Command } from 'commander';\nconst program = new Command('tsapp');\nprogram.option('--port <n>', 'Port.');\nprogram.parse();\n`);
    writeFileSync(path.join(dir, 'docs/tsapp.md'), '# tsapp\n\n### `tsapp`\n\n| Option | Description |\n| --- | --- |\n| `--port` | Port. |\n');
  },
  // #33 sweep s24 D6/D7 kind (session 25): types that make the type checker slow or memory-hungry.
  'ts-checker-permutations': (dir) => {
    tsCheckerProject(dir, "type Perm<U, T = U> = [U] extends [never] ? [] : T extends T ? [T, ...Perm<Exclude<U, T>>] : never;\ntype P = Perm<'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'g' | 'h' | 'i'>;\nexport type Config = { [K in P[number] as `${K}x`]: P };\n");
  },
  'ts-checker-recursive-tuples': (dir) => {
    tsCheckerProject(dir, 'type Tup<N extends number, A extends unknown[] = []> = A["length"] extends N ? A : Tup<N, [...A, A["length"]]>;\ntype Keys = `k${Tup<999>[number]}`;\nexport type Config = { [P in Keys]: Tup<999> };\n');
  },
  'ts-checker-huge-union': (dir) => {
    const letters = 'abcdefghi'.split('').map((c) => `\`${c}\${D}\${D}\${D}\${D}\``).join(' | ');
    tsCheckerProject(dir, `type D = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';\ntype K = ${letters};\nexport type Config = { [P in K]?: string };\n`);
  },
  'ts-checker-many-aliases': (dir) => {
    const aliases = Array.from({ length: 300 }, (_, i) => `type D${i} = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9'; export type C${i} = { [P in \`\${D${i}}\${D${i}}\${D${i}}\` | \`x\${D${i}}\${D${i}}\${D${i}}\`]?: string };`);
    tsCheckerProject(dir, aliases.join('\n') + '\n');
  },
  // #33 s47 sweep K1: 230 checker aliases, past the 200 the checker reads in a run (silent before).
  'ts-checker-alias-cap': (dir) => {
    const aliases = Array.from({ length: 230 }, (_, i) => `export type C${i} = { [K in keyof Base as \`c${i}_\${string & K}\`]: Base[K] };`);
    tsCheckerProject(dir, `export interface Base { a?: number; b?: string }\n${aliases.join('\n')}\n`);
  },
  // #33 s47 sweep K1: 3,000 small modules (570,000 tokens), the config type in the last (10-13 s of CPU, 516-545 MB, no warning).
  'ts-many-small-modules': (dir) => {
    mkdirSync(path.join(dir, 'src/mods'), { recursive: true });
    mkdirSync(path.join(dir, 'docs'), { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'tool', version: '1.0.0', bin: { tool: 'src/cli.ts' }, dependencies: { commander: '^12.0.0' } }));
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'bundler' }, include: ['src'] }));
    for (let i = 0; i < 3000; i++) {
      const prev = i > 0 ? `import type { I${i - 1} } from './m${i - 1}';\n` : '';
      const fields = Array.from({ length: 20 }, (_, j) => `  /** Field ${j} of ${i}. @default ${j} */\n  f${j}?: number;\n`).join('');
      const pick = i > 0 ? `Pick<I${i - 1}, "f0">` : '{}';
      writeFileSync(
        path.join(dir, `src/mods/m${i}.ts`),
        `${prev}export interface I${i} {\n${fields}}\nexport type P${i} = { [K in keyof I${i} as \`x_\${string & K}\`]: I${i}[K] };\n` +
          `export type Q${i} = Partial<I${i}> & ${pick};\nexport const v${i} = { a: 1, b: 'x' };\nexport type T${i} = typeof v${i};\n`,
      );
    }
    writeFileSync(path.join(dir, 'src/cli.ts'), "import { Command } from 'commander';\nconst program = new Command('tool');\nprogram.option('--seed <n>', 'Random seed', '0');\nprogram.option('--name <s>', 'Name of the run', 'run');\nprogram.parse();\n");
    writeFileSync(path.join(dir, 'docdrift.config.json'), JSON.stringify({ commands: { tool: { config: 'Q2999', program: 'src/cli.ts' } } }));
    writeFileSync(path.join(dir, 'README.md'), '# tool\n\n```bash\ntool --seed 1 --nme demo\n```\n');
    writeFileSync(path.join(dir, 'docs/reference.md'), '# Reference\n\n### `tool`\n\n| Option | Default | Description |\n| --- | --- | --- |\n| `--seed` | `0` | Random seed |\n| `--name` | `run` | Name of the run |\n');
  },
  'ts-sade-long-path': (dir) => {
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    const words = Array.from({ length: 10_000 }, (_, i) => `w${i}`).join(' ');
    writeFileSync(path.join(dir, 'src/cli.ts'), `import sade from 'sade';\nconst prog = sade('tsapp');\nprog.command('${words}').option('--x', 'x');\nprog.parse(process.argv);\n`);
  },
  'ts-cac-many-commands': (dir) => {
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    const commands = Array.from({ length: 10_000 }, (_, i) => `cli.command('c${i}', 'cmd ${i}').option('--o${i}', 'o');`).join('\n');
    writeFileSync(path.join(dir, 'src/cli.ts'), `import { cac } from 'cac';\nconst cli = cac('tsapp');\ncli.option('--g', 'global');\n${commands}\ncli.parse();\n`);
  },
  // s26 sweep2 D4: three nested loops over 300 items declared 300³ commander (and yargs) options.
  'ts-nested-loops': (dir) => {
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    const items = `[${Array.from({ length: 300 }, (_, i) => `'a${i}'`).join(', ')}]`;
    writeFileSync(path.join(dir, 'src/cli.ts'), `import { Command } from 'commander';\nconst program = new Command('tsapp');\nconst A = ${items};\nfor (const a of A) for (const b of A) for (const c of A) program.option(\`--x-\${a}-\${b}-\${c}\`, 'd');\nprogram.parse();\n`);
    writeFileSync(path.join(dir, 'src/y.ts'), `import yargs from 'yargs';\nlet y = yargs(process.argv.slice(2)).scriptName('other');\nconst A = ${items};\nA.forEach((a) => A.forEach((b) => A.forEach((c) => { y = y.option(a + b + c, { type: 'string' }); })));\ny.parse();\n`);
  },
  // s26 sweep2 D5: a cac command string of 150,000 unclosed `<`, and one of 40,000 positionals.
  'ts-cac-brackets': (dir) => {
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    const usage = Array.from({ length: 40_000 }, (_, i) => `<a${i}>`).join(' ');
    writeFileSync(path.join(dir, 'src/cli.ts'), `import { cac } from 'cac';\nconst cli = cac('tsapp');\ncli.command('build ${'<'.repeat(150_000)}', 'Build').option('--seed <n>', 'Seed');\ncli.command('run ${usage}', 'Run');\ncli.parse();\n`);
  },
  'ts-nested-commands': (dir) => {
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    const chain = Array.from({ length: 2000 }, (_, i) => `.command('c${i}')`).join('');
    writeFileSync(path.join(dir, 'src/cli.ts'), `import { Command } from 'commander';\nconst program = new Command('tsapp');\nprogram${chain}.option('--x', 'x');\nprogram.parse();\n`);
    let command = `defineCommand({ meta: { name: 'leaf' }, args: { x: { type: 'string' } } })`;
    for (let i = 0; i < 2000; i++) command = `defineCommand({ meta: { name: 'c${i}' }, subCommands: { c${i}: ${command} } })`;
    writeFileSync(path.join(dir, 'src/citty.ts'), `import { defineCommand, runMain } from 'citty';\nrunMain(${command});\n`);
  },
  'ts-many-flag-keys': (dir) => {
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    const keys = (line: (i: number) => string): string => Array.from({ length: 10_000 }, (_, i) => line(i)).join('\n');
    writeFileSync(path.join(dir, 'src/cli.ts'), `import meow from 'meow';\nconst cli = meow('help', { importMeta: import.meta, flags: {\n${keys((i) => `  f${i}: { type: 'string' },`)}\n} });\n`);
    writeFileSync(path.join(dir, 'src/oclif.ts'), `import { Command, Flags } from '@oclif/core';\nexport default class Run extends Command {\n  static flags = {\n${keys((i) => `    f${i}: Flags.string({ description: 'f' }),`)}\n  };\n  async run() {}\n}\n`);
    writeFileSync(path.join(dir, 'src/citty.ts'), `import { defineCommand, runMain } from 'citty';\nrunMain(defineCommand({ meta: { name: 'other' }, args: {\n${keys((i) => `  f${i}: { type: 'string' },`)}\n} }));\n`);
    writeFileSync(path.join(dir, 'src/node.ts'), `import { parseArgs } from 'node:util';\nparseArgs({ options: {\n${keys((i) => `  f${i}: { type: 'string' },`)}\n} });\n`);
  },
  // #33 s27 sweep2 D6: one commander command with 110,000 `.aliases([...])` (989 KB): each alias
  // was deduplicated with `includes`, O(aliases^2): 16.4 s CPU in the TypeScript facts worker.
  'ts-many-aliases': (dir) => {
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    const aliases = Array.from({ length: 110_000 }, (_, i) => `'a${i}'`).join(',');
    writeFileSync(path.join(dir, 'src/cli.ts'), `import { Command } from 'commander';\nconst program = new Command().name('packgen');\nprogram.command('run').aliases([${aliases}]).option('--minify', 'Minify the output');\nawait program.parseAsync(process.argv);\n`);
    writeFileSync(path.join(dir, 'README.md'), '# packgen\n\n```sh\npackgen run --minify\npackgen a109999 --minify\npackgen a109999 --minfy\n```\n');
  },
  // #33 sweep 23 D7: 1,500 pages sharing one finding (folding copies compared every pair of files:
  // 9.8 s for 1,800 pages, 18-54 s for 3,000), and 300 mirrored copies of a page, folded into one
  // finding (1,800 pages in all: under the 2,000 documents one run parses).
  'copies-many-pages': (dir) => {
    const page = '# t\n\n```bash\ntool +seed=1\n```\n';
    for (let i = 0; i < 5; i++) {
      mkdirSync(path.join(dir, `docs/d${i}`), { recursive: true });
      for (let j = 0; j < 300; j++) writeFileSync(path.join(dir, `docs/d${i}/f${j}.md`), page);
    }
    for (let i = 0; i < 300; i++) {
      mkdirSync(path.join(dir, `docs/mirror${i}/run`), { recursive: true });
      writeFileSync(path.join(dir, `docs/mirror${i}/run/usage.md`), page);
    }
  },
  // #33 fresh sweep D9: one Markdown page under 1 MB, read within 512 MB (micromark held its
  // events for the whole page: 635-684 MB on main). A table of 30,000 rows, 10,000 sections with
  // a table each; then pages it cannot read (100,000 reference links: parsed whole; rows of 5,000 cells).
  'doc-memory-table-rows': (dir) => memoryPage(dir, `### \`tool\`\n\n| Parameter | Description |\n| --- | --- |\n${Array.from({ length: 30_000 }, (_, i) => `| \`p${i}\` | d |\n`).join('')}`),
  'doc-memory-sections': (dir) => memoryPage(dir, '### `tool`\n\n| Parameter | Description |\n| --- | --- |\n| `seed` | d |\n\n'.repeat(5_000)),
  'doc-memory-refused': (dir) => {
    memoryPage(dir, `# a\n\n${'[x][y]'.repeat(100_000)}\n\n[y]: http://e\n`, 'refs.md');
    memoryPage(dir, `# a\n\n| a | b |\n| - | - |\n${`${'|'.repeat(5000)}\n`.repeat(150)}`, 'pipes.md');
  },
  // s28 sweep2 D2: a settings class of 6,000 fields and 6,000 exported names of another
  // namespace: envNameStatus scanned every field per name (rules 19.8 s at 8,000); the abbreviation hint
  // split every field per name too (4.4 s of what was left).
  'env-names-vs-fields': (dir) => {
    const cli = path.join(dir, 'tool/cli.py');
    const fields = Array.from({ length: 6000 }, (_, i) => `    f${i}: int = ${i}\n`).join('');
    writeFileSync(cli, readFileSync(cli, 'utf8').replace('class ToolConfig(BaseModel):\n', `from pydantic_settings import BaseSettings, SettingsConfigDict\nclass ToolConfig(BaseSettings):\n    model_config = SettingsConfigDict(env_prefix="TOOL_")\n${fields}`));
    // In pages of 2,000 lines: each within the 5,000 words of example commands a page is read up to.
    exportPages(dir, 6000);
    appendFileSync(path.join(dir, 'README.md'), '\n```bash\nexport TOOL_SEEDX=1\n```\n');
  },
  // s28 sweep2 D3: 8,000 computed reads (`os.environ.get("ZP<i>_" + k)`) and 8,000 exported
  // names: envNameStatus folded every read's prefix per name (rules 10.3 s).
  'env-names-vs-dynamic-reads': (dir) => {
    const cli = path.join(dir, 'tool/cli.py');
    const reads = Array.from({ length: 8000 }, (_, i) => `    a${i} = os.environ.get("ZP${i}_" + k)\n`).join('');
    const text = readFileSync(cli, 'utf8').replace('class ToolConfig(BaseModel):\n', 'from pydantic_settings import BaseSettings, SettingsConfigDict\nclass ToolConfig(BaseSettings):\n    model_config = SettingsConfigDict(env_prefix="TOOL_")\n');
    writeFileSync(cli, `${text}\nimport os\ndef env(k):\n${reads}`);
    exportPages(dir, 8000);
    appendFileSync(path.join(dir, 'README.md'), '\n```bash\nexport ZP7_HOST=1\nexport TOOL_SEEDX=1\n```\n');
  },
  // s28 sweep2 D5: an argparse parser of 8,000 flags and 12,000 one-line examples: each
  // invocation rebuilt the spellings and scanned them per usage (model 28 s at 12,000; 6,000 here).
  'argparse-abbrev-many-examples': (dir) => {
    const flags = Array.from({ length: 8000 }, (_, i) => `    p.add_argument("--f${i}", default=${i})\n`).join('');
    writeFileSync(path.join(dir, 'tool/cli.py'), `import argparse\n\ndef main():\n    p = argparse.ArgumentParser(prog="tool")\n    p.add_argument("--unique-name")\n${flags}    p.parse_args()\n`);
    const lines = Array.from({ length: 6000 }, (_, i) => `tool --g${i} 1\n`).join('');
    writeFileSync(path.join(dir, 'README.md'), `# tool\n\n\`\`\`bash\ntool --uniq x --f12 1\n${lines}\`\`\`\n`);
  },
  // s29 audit: a parser of 8,000 flags with a sub-command, and 8,000 examples each ending at a
  // word that names no sub-command (5,000 here): endAtUnknownSubcommand copied the group's parameters and
  // scanned them per option word of every example (model 11.4 s at 12,000 examples).
  'argparse-group-many-examples': (dir) => {
    const flags = Array.from({ length: 8000 }, (_, i) => `    p.add_argument("--f${i}", default=${i})\n`).join('');
    writeFileSync(path.join(dir, 'tool/cli.py'), `import argparse\n\ndef main():\n    p = argparse.ArgumentParser(prog="tool")\n${flags}    sub = p.add_subparsers(dest="cmd")\n    r = sub.add_parser("run")\n    r.add_argument("--fast", action="store_true")\n    p.parse_args()\n`);
    const lines = Array.from({ length: 5000 }, (_, i) => `tool --f${i} 1 --f${i + 1} 2 go\n`).join('');
    writeFileSync(path.join(dir, 'README.md'), `# tool\n\n\`\`\`bash\ntool run --fastr\n${lines}\`\`\`\n`);
  },
  // s29 audit: 8,000 examples passing an unknown `-z` and an undocumented flag to a command of
  // 8,000 flags with a 4,000-row reference: the one-letter hint copied and filtered the flags per
  // usage, the key-row test scanned every row per undocumented usage (and each invocation
  // rebuilt the flag spellings, D5).
  'argparse-short-flags-key-rows': (dir) => {
    const flags = Array.from({ length: 8000 }, (_, i) => `    p.add_argument("--f${i}", default=${i})\n`).join('');
    writeFileSync(path.join(dir, 'tool/cli.py'), `import argparse\n\ndef main():\n    p = argparse.ArgumentParser(prog="tool")\n    p.add_argument("--gpu")\n${flags}    p.parse_args()\n`);
    const rows = Array.from({ length: 4000 }, (_, i) => `| \`--f${i}\` | d |\n`).join('');
    writeFileSync(path.join(dir, 'docs/reference.md'), `# Reference\n\n### \`tool\`\n\n| Option | Description |\n| --- | --- |\n${rows}| \`f7999.level\` | d |\n`);
    // 1,000 examples a page (4,000 words: within the 5,000 words of example commands a page is read up to).
    const lines = (from: number): string => Array.from({ length: 1000 }, (_, i) => `tool --f${from + i} 1 -z\n`).join('');
    writeFileSync(path.join(dir, 'README.md'), `# tool\n\n\`\`\`bash\ntool -g 1\n${lines(4000)}\`\`\`\n\nSee [ref](docs/reference.md).\n`);
    for (let k = 1; k < 8; k++) writeFileSync(path.join(dir, `docs/more${k}.md`), `# More \`tool\` examples\n\n\`\`\`bash\n${lines(4000 + 1000 * k)}\`\`\`\n`);
  },
  // #33 s29 sweep D4: 2,000 pydantic subclasses of the 30-field `ToolConfig` (each a config-class
  // candidate) and 400 tables of those 30 fields under headings naming no command: section
  // inference scored tables × classes × rows on main (18 s CPU).
  'docs-infer-many-tables': (dir) => {
    const names = ['seed', 'name', ...Array.from({ length: 28 }, (_, i) => `a${i}`)];
    const fields = names.map((n) => `    ${n}: ${n === 'name' ? 'str = "run"' : 'int = 0'}\n`).join('');
    const subclasses = Array.from({ length: 2000 }, (_, c) => `class C${c}(ToolConfig):\n    z${c}: int = 0\n`).join('\n');
    writeFileSync(path.join(dir, 'tool/cli.py'), `from pydantic import BaseModel\n\n\nclass ToolConfig(BaseModel):\n${fields}\n\n${subclasses}\n\ndef main(cfg: dict) -> None:\n    ToolConfig.model_validate(cfg)\n`);
    const table = `| Name | Type | Default | Description |\n| --- | --- | --- | --- |\n${names.map((n) => (n === 'name' ? '| `name` | str | `"run"` | D. |\n' : `| \`${n}\` | int | \`0\` | D. |\n`)).join('')}`;
    writeFileSync(path.join(dir, 'docs/reference.md'), `# Reference\n\n### \`tool\`\n\n${table}`);
    writeFileSync(path.join(dir, 'docs/parts.md'), `# Parts\n\n${Array.from({ length: 400 }, (_, t) => `## Part ${t}\n\n${table}\n`).join('')}`);
  },
  // #33 s29 sweep D5: a README section of 5,000 paragraphs, each naming a flag in prose whose
  // sentence names no program: each flag's section was rescanned for program names (N²/2
  // paragraph scans on main: 20 s CPU).
  'prose-flags-many-paragraphs': (dir) => {
    appendFileSync(path.join(dir, 'README.md'), `\n${Array.from({ length: 5000 }, (_, i) => `Pass \`--nope${i}\` to tool here.\n`).join('\n')}`);
  },
  // #33 s30 sweep D1: 6,000 files of 250-character names under one folder, met by a path
  // argument of 3 wildcards whose literal ending they share (picomatch backtracked each name
  // in cubic time: ~18 s CPU on main).
  'glob-arg-long-names': (dir) => {
    mkdirSync(path.join(dir, 'notes'), { recursive: true });
    for (let i = 0; i < 6000; i++) writeFileSync(path.join(dir, 'notes', `${String(i).padStart(4, '0')}${'a'.repeat(243)}bbc`), '# x\n');
  },
  // #33 s30 sweep D2: 8,000 files in 100 folders and a path argument of 999 brace alternatives
  // (`**/x{1..999}.md`: one walk of the tree each on main, 15 s CPU), one of which names a page.
  'glob-arg-many-alternatives': (dir) => {
    for (let d = 0; d < 100; d++) {
      mkdirSync(path.join(dir, `notes/d${d}`), { recursive: true });
      for (let i = 0; i < 80; i++) writeFileSync(path.join(dir, `notes/d${d}/n${i}${'a'.repeat(200)}.md`), '# x\n');
    }
    writeFileSync(path.join(dir, 'notes/d5/x500.md'), '# Notes\n\n```bash\ntool --seed 1\n```\n');
  },
  // #33 s30 sweep2 D2 (kind 13): copies of the reference page in folders whose names hold a line
  // terminator (LF, CR, U+2028, U+2029, U+0085; one nested), and the code default changed so every
  // copy is stale. picomatch's `**` is built from `.`, which matched no LF/CR/U+2028/U+2029: on
  // main 3 of the 7 copies were reported and the others skipped with no note.
  'line-break-folders': (dir) => {
    const cli = path.join(dir, 'tool/cli.py');
    writeFileSync(cli, readFileSync(cli, 'utf8').replace('default="run"', 'default="walk"'));
    const page = readFileSync(path.join(dir, 'docs/reference.md'), 'utf8');
    for (const folder of ['n\nl', 'u\u2028x', 'p\u2029q', 'c\rr', 'e\u0085l', 'n\nl/m\nn']) {
      mkdirSync(path.join(dir, 'docs', folder), { recursive: true });
      writeFileSync(path.join(dir, 'docs', folder, 'r.md'), page);
    }
  },
  // s31 sweep D7: a document and a source under folders whose names are not valid UTF-8 (and a
  // file no pattern matches under a third). The tree walk (no git) could not list such a folder
  // (read with U+FFFD, a name no folder has) and skipped what was below it without a word.
  'undecodable-folders': (dir) => undecodableFolders(dir),
  'undecodable-folders-git': (dir) => {
    undecodableFolders(dir);
    gitCommitted(dir);
  },
  // The glob walk (a docs pattern with `./`) cannot list such a folder either: one finding per folder.
  'undecodable-folders-glob': (dir) => {
    undecodableFolders(dir);
    writeFileSync(path.join(dir, 'docdrift.config.json'), JSON.stringify({ docs: ['README.md', 'docs/**/*.md', './docs/*/**/*.md'] }));
  },
  // #33 s30 sweep D6: one published-site autolink of 60,000 segments on a 120 KB page, no site
  // config needed: the route resolver tried every suffix of its path as a string (segments²:
  // 23.8 s CPU on main).
  'site-url-many-segments': (dir) => {
    writeFileSync(path.join(dir, 'docs/links.md'), `# Links\n\nRun \`tool --seed 1\`.\n\n<https://e.com/${'a/'.repeat(60_000)}z>\n`);
  },
  // #33 s30 sweep D4: mkdocs site_url, 15,000 autolinks to the site and 1,000 {doc} roles, and
  // 1,000 pages under a 2,900-character folder path: each link filtered every page path,
  // lower-cased again (links × pages × path length: 18.9 s CPU on main, 3.6 s now).
  'site-url-many-links': (dir) => {
    const folder = path.join(dir, 'docs', ...Array.from({ length: 12 }, () => 'D'.repeat(240)));
    mkdirSync(folder, { recursive: true });
    for (let i = 0; i < 1000; i++) writeFileSync(path.join(folder, `page${i}.md`), `# Page ${i}\n\nRun \`tool --seed 1\`.\n`);
    writeFileSync(path.join(dir, 'mkdocs.yml'), 'site_name: x\nsite_url: https://x.org/\n');
    writeFileSync(path.join(dir, 'docs/links.md'), `# Links\n\nRun \`tool --seed 1\`.\n\n${Array.from({ length: 15_000 }, (_, i) => `<https://x.org/en/q/a${i}>\n`).join('')}`);
    writeFileSync(path.join(dir, 'docs/roles.md'), `# Roles\n\nRun \`tool --seed 1\`.\n\n${Array.from({ length: 1_000 }, (_, i) => `See {doc}\`/q${i}\`.\n`).join('')}`);
  },
  // #33 s30 sweep D7: 150 one-line pages in a folder 1,700 levels deep (a 3.4 KB path): reading
  // each checked its real path with depth² lstats, and the route index held every suffix of every
  // path (30 s CPU and 1.25 GB at 1,900 levels on main).
  'deep-folder-pages': (dir) => {
    const folder = path.join(dir, 'docs', ...Array.from({ length: 1700 }, () => 'a'));
    mkdirSync(folder, { recursive: true });
    for (let i = 0; i < 150; i++) writeFileSync(path.join(folder, `p${i}.md`), `# P${i}\n\nRun \`tool --seed 1\`.\n`);
  },
  // The D7 kind through symbolic links: 150 links in docs/ to one page 1,700 folders deep. Naming
  // each link's target resolved its real path, depth² lstats a link (20 s of discovery for 100
  // links at 1,900 levels on main).
  'deep-folder-links': (dir) => {
    const deep = Array.from({ length: 1700 }, () => 'a').join('/');
    mkdirSync(path.join(dir, 'docs', deep), { recursive: true });
    writeFileSync(path.join(dir, 'docs', deep, 'p.md'), '# P\n\nRun `tool --seed 1`.\n');
    for (let i = 0; i < 150; i++) symlinkSync(`${deep}/p.md`, path.join(dir, `docs/l${i}.md`));
  },
  'unreadable-file': (dir) => {
    const file = path.join(dir, 'docs/secret.md');
    writeFileSync(file, '# tool\n\n```bash\ntool +sed=1\n```\n');
    chmodSync(file, 0o000);
  },
};

/**
 * About `length` characters of Markdown that is slow for its size and linear to write: lines of
 * lists nested ten deep (`- - - … x`), ~70 ms of CPU per KB in a 3 KB page and more than linear
 * in one block (100 KB: over 30 s). Budget cases used `*_` until pages too dense in emphasis
 * markers were parsed with emphasis off (src/docs/emphasis.ts), which makes `*_` cost 3 ms/KB.
 */
function slowLists(length: number): string {
  return '- - - - - - - - - - x\n'.repeat(Math.ceil(length / 22));
}

/** Writes `docs/d<0xFF>/x.md` (a stale example), `tool/p<0xFF>/m.py` and `data/b<0xFF>/blob.bin` (no pattern's) below `dir`. */
function undecodableFolders(dir: string): void {
  const bytes = (rel: string, name: string): Buffer => Buffer.concat([Buffer.from(path.join(dir, rel, name)), Buffer.from([0xff])]);
  const sep = Buffer.from(path.sep);
  for (const [folder, file, text] of [[bytes('docs', 'd'), 'x.md', '# X\n\n```bash\ntool +sed=1\n```\n'], [bytes('tool', 'p'), 'm.py', 'x = 1\n'], [bytes('data', 'b'), 'blob.bin', 'x']] as const) {
    mkdirSync(folder, { recursive: true });
    writeFileSync(Buffer.concat([folder, sep, Buffer.from(file)]), text);
  }
}

/** Makes `dir` a git repository with everything in it committed. */
function gitCommitted(dir: string): void {
  for (const args of [['init', '-q'], ['add', '-A'], ['commit', '-qm', 'init']]) {
    spawnSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', '-c', 'init.defaultBranch=main', ...args], { cwd: dir, stdio: 'ignore' });
  }
}

/** Writes .docdrift-baseline.json with `n` entries that match no finding (each one stale). */
function writeBaseline(dir: string, n: number): void {
  const entries = Array.from({ length: n }, (_, i) => ({ file: `README${i}.md`, ruleId: 'example-param-undocumented', command: 'tool', subject: `s${i}`, count: 1 }));
  writeFileSync(path.join(dir, '.docdrift-baseline.json'), JSON.stringify({ version: 1, entries }));
}

/** Writes docs/<name> (a.md): `body`, then a shell block running `tool` with a misspelled parameter. */
function memoryPage(dir: string, body: string, name = 'a.md'): void {
  writeFileSync(path.join(dir, 'docs', name), `${body}\n\n\`\`\`bash\ntool +sed=1\n\`\`\`\n`);
}

/** Writes docs/<name>: a sentence naming `tool` (so the document is parsed), then `body`. */
function hostile(dir: string, name: string, body: string): void {
  writeFileSync(path.join(dir, 'docs', name), `Notes about tool.\n\n${body}`);
}

/** Preloaded into the CLI process: writes its peak resident set (KiB; worker threads included) on exit. */
const RSS_PRELOAD = `data:text/javascript,${encodeURIComponent(
  "import { writeFileSync } from 'node:fs'; process.on('exit', () => { if (process.env.DOCDRIFT_TEST_RSS) writeFileSync(process.env.DOCDRIFT_TEST_RSS, String(process.resourceUsage().maxRSS)); });",
)}`;

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) {
    try {
      chmodSync(path.join(t, 'docs/secret.md'), 0o644);
    } catch {
      // only the unreadable-file case has it
    }
    rmSync(t, { recursive: true, force: true });
  }
  // Removing ~150 case folders, some with 100 MB reports and caches, took over vitest's 10 s hook
  // default on a loaded machine (a CI run beside the corpus): cleanup, not a bound under test.
}, 120_000);

const cases = readdirSync(CORPUS, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith('_'))
  .map((d) => d.name)
  .sort();

describe('bad-input corpus', () => {
  it('has every case the corpus README lists, each with an expected.json', () => {
    const readme = readFileSync(path.join(CORPUS, 'README.md'), 'utf8');
    for (const name of cases) expect(readme).toContain(`\`${name}\``);
    expect(cases.length).toBeGreaterThanOrEqual(15);
  });

  for (const name of cases) {
    const expected = JSON.parse(readFileSync(path.join(CORPUS, name, 'expected.json'), 'utf8')) as Expected;
    it(`${name}: ${expected.description}`, { timeout: (expected.maxSeconds + 60) * 1000 }, () => {
      const dir = mkdtempSync(path.join(tmpdir(), `docdrift-bad-${name}-`));
      temps.push(dir);
      if (expected.base) cpSync(BASE, dir, { recursive: true });
      cpSync(path.join(CORPUS, name), dir, { recursive: true, filter: (src) => path.basename(src) !== 'expected.json' });
      mkdirSync(path.join(dir, 'docs'), { recursive: true });
      if (expected.generate) {
        const generate = GENERATORS[expected.generate];
        expect(generate, `generator ${expected.generate}`).toBeDefined();
        generate!(dir);
      }
      const rssFile = `${dir}.rss`;
      temps.push(rssFile);
      /** One bounded run of the CLI: its result, checked against the time, memory and stack-trace bounds. */
      const run = () => {
        const started = performance.now();
        const r = spawnSync(process.execPath, ['--import', RSS_PRELOAD, BIN, '--root', dir, '--format', 'json', ...(expected.args ?? [])], {
          cwd: dir,
          encoding: 'utf8',
          env: { ...process.env, NO_COLOR: '1', DOCDRIFT_TEST_RSS: rssFile, ...expected.env },
          timeout: expected.maxSeconds * 1000,
          maxBuffer: 256 * 1024 * 1024,
        });
        const seconds = (performance.now() - started) / 1000;
        expect(r.error, `spawn error (a timeout means a hang): ${String(r.error)}`).toBeUndefined();
        expect(seconds).toBeLessThan(expected.maxSeconds);
        if (expected.maxMegabytes !== undefined) {
          const megabytes = Number(readFileSync(rssFile, 'utf8')) / 1024;
          expect(megabytes, 'peak resident memory (MB)').toBeLessThan(expected.maxMegabytes);
        }
        expect(r.stderr, 'no stack trace').not.toMatch(/\n\s+at /);
        return r;
      };
      const r = run();
      if (Array.isArray(expected.exitCode)) expect(expected.exitCode, r.stderr).toContain(r.status);
      else expect(r.status, r.stderr).toBe(expected.exitCode);
      if (expected.again) {
        const reportText = (): string | undefined => (expected.reportFile ? readFileSync(path.join(dir, expected.reportFile), 'utf8') : undefined);
        const firstReport = reportText();
        const second = run();
        expect(second.status, second.stderr).toBe(r.status);
        expect(second.stdout === r.stdout, 'the second run prints what the first did').toBe(true);
        expect(reportText() === firstReport, 'the second run writes the report the first did').toBe(true);
      }
      for (const s of expected.stderrIncludes ?? []) expect(r.stderr).toContain(s);
      if (expected.stderrIncludesAny) expect(expected.stderrIncludesAny.some((s) => r.stderr.includes(s)), `stderr includes one of ${JSON.stringify(expected.stderrIncludesAny)}: ${r.stderr}`).toBe(true);
      if (expected.exitCode === 2) return;
      const report = JSON.parse(expected.reportFile ? readFileSync(path.join(dir, expected.reportFile), 'utf8') : r.stdout) as { results?: JsonResult[]; runs?: { results: { ruleId: string }[] }[] };
      const results = report.runs ? report.runs[0]!.results.map((m) => ({ ruleId: m.ruleId }) as JsonResult) : report.results!;
      const wanted = IS_ROOT && expected.findingsAsRoot ? expected.findingsAsRoot : expected.findings ?? [];
      for (const f of wanted) {
        const match = results.find((m) =>
          m.ruleId === f.ruleId && (f.file === undefined || m.file === f.file) && (f.line === undefined || m.line === f.line) &&
          (f.column === undefined || m.column === f.column) && (f.severity === undefined || m.severity === f.severity) &&
          (f.messageIncludes === undefined || m.message.includes(f.messageIncludes)) &&
          (f.messageIncludesAny === undefined || f.messageIncludesAny.some((s) => m.message.includes(s))));
        expect(match, `${JSON.stringify(f)} among ${JSON.stringify(results.slice(0, 10), null, 1)}`).toBeDefined();
      }
      if (expected.onlyRules) for (const m of results) expect(expected.onlyRules).toContain(m.ruleId);
      if (expected.count !== undefined) expect(results).toHaveLength(expected.count);
    });
  }
});

/** A commander project (`tsapp --port`, documented) whose src/types.ts holds `types`: the type checker's hostile cases. */
function tsCheckerProject(dir: string, types: string): void {
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  mkdirSync(path.join(dir, 'docs'), { recursive: true });
  writeFileSync(path.join(dir, 'src/types.ts'), types);
  writeFileSync(path.join(dir, 'src/cli.ts'), `import { Command } from 'commander';\nconst program = new Command('tsapp');\nprogram.option('--port <n>', 'Port.');\nprogram.parse();\n`);
  writeFileSync(path.join(dir, 'docs/tsapp.md'), '# tsapp\n\n### `tsapp`\n\n| Option | Description |\n| --- | --- |\n| `--port` | Port. |\n');
}
