/** Builds deterministic synthetic repositories shaped like NVIDIA NeMo Gym, for the benchmark (`npm run bench`) and its smoke test. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { seededRandom } from '../random.js';

/** How big a synthetic repository is and how it is drawn. */
export interface GenerateOptions {
  /**
   * Size relative to NeMo Gym: 1 is about 420 Markdown/MDX files and 800 Python files; 10 is ten
   * times that. Fractions (0.05) make tiny repositories for tests. Must be > 0.
   */
  scale: number;
  /** Seed of the pseudo-random choices; the same seed and scale give byte-identical files. Default 1. */
  seed?: number;
  /** Run `git init` and commit the files, as real repositories are (default true; skipped when git is missing). */
  git?: boolean;
}

/** What {@link generateRepo} wrote. */
export interface GeneratedRepo {
  /** Absolute root of the repository. */
  root: string;
  /** Project-relative paths of the Markdown/MDX files outside ignored folders, sorted. */
  docs: string[];
  /** Number of Python files written (outside ignored folders). */
  pythonFiles: number;
  /** Number of TypeScript files written. */
  typescriptFiles: number;
  /** Console-script names declared in the `pyproject.toml` files, and the `bin` of `package.json`. */
  commands: string[];
  /** Commands used in shell examples of the docs (each at least once). */
  exampleCommands: string[];
  /** True when the repository was committed with git. */
  committed: boolean;
}


const WORDS = [
  'agent', 'policy', 'model', 'dataset', 'rollout', 'reward', 'judge', 'server', 'prompt', 'sample',
  'batch', 'limit', 'repeat', 'timeout', 'retry', 'output', 'input', 'path', 'seed', 'temperature',
  'tokens', 'cache', 'resume', 'split', 'shard', 'worker', 'port', 'host', 'log', 'level', 'metric',
  'eval', 'config', 'name', 'mode', 'size', 'count', 'rate', 'budget', 'window',
];
const TYPES: Array<[string, (r: () => number) => string]> = [
  ['int', (r) => String(Math.floor(r() * 1000))],
  ['float', (r) => (r() * 10).toFixed(2)],
  ['bool', (r) => (r() < 0.5 ? 'True' : 'False')],
  ['str', (r) => JSON.stringify(WORDS[Math.floor(r() * WORDS.length)])],
  ['Optional[int]', () => 'None'],
  ['List[str]', () => 'list'],
  ['Dict[str, Any]', () => 'dict'],
];
const LOREM =
  'This page describes how the environment is configured, which servers it starts, and how rollouts are collected and scored. ' +
  'Each resources server verifies the answers of the policy model and returns a reward between zero and one. ';

interface Field {
  name: string;
  type: string;
  default: string | undefined;
  description: string;
}

interface Command {
  name: string;
  alias: string;
  module: string;
  fn: string;
  kind: 'pydantic' | 'dataclass' | 'argparse' | 'click' | 'typer';
  fields: Field[];
}

/**
 * Writes a synthetic repository into `root` (created if needed; existing files are overwritten).
 *
 * Per unit of scale (units are numbered packages `gym0`, `gym1`, …; a fractional scale shrinks
 * the last unit):
 * - Python: 800 files in `gym<u>/…`: 40 config modules with pydantic models and dataclasses,
 *   20 command modules (pydantic/dataclass configs built with `model_validate`, argparse, click
 *   and typer programs), the rest ordinary modules of functions and classes; `pyproject.toml`
 *   declares 20 console scripts, each with a long and a short alias.
 * - Docs: 420 Markdown/MDX files: a reference page per unit (`docs/reference/cli-<u>.mdx`, one
 *   table per command, MDX components and frontmatter), READMEs with shell blocks that pass Hydra
 *   overrides and flags (a few misspelled or undocumented, so rules fire), YAML snippets, MDX
 *   tutorials with `import`/JSX components, and prose pages that name no command.
 * - TypeScript (unit 0 only): a `package.json` `bin` and a handful of modules with config
 *   interfaces.
 * - Ignored content: `.gitignore` lists `build/` and `*.log`; `build/` holds Markdown copies
 *   and `.venv/` Python files, which docdrift, markdownlint-cli2 and remark must all skip.
 *
 * @throws Error when `scale` is not a positive finite number, or on file-system errors.
 */
export function generateRepo(root: string, options: GenerateOptions): GeneratedRepo {
  const { scale } = options;
  if (!(scale > 0) || !Number.isFinite(scale)) throw new Error(`generateRepo: scale must be a positive number, got ${scale}`);
  const random = seededRandom(options.seed ?? 1);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const int = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
  const docs: string[] = [];
  let pythonFiles = 0;
  let typescriptFiles = 0;
  const commands: string[] = [];
  const exampleCommands = new Set<string>();
  const write = (rel: string, text: string): void => {
    const abs = path.join(root, rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    if (/\.mdx?$/.test(rel) && !rel.startsWith('build/')) docs.push(rel);
    if (rel.endsWith('.py') && !rel.startsWith('.venv/')) pythonFiles++;
    if (rel.endsWith('.ts')) typescriptFiles++;
  };
  mkdirSync(root, { recursive: true });
  write('.gitignore', 'build/\n*.log\n.venv/\n__pycache__/\n');

  const units = Math.ceil(scale);
  for (let u = 0; u < units; u++) {
    const share = Math.min(1, scale - u); // 1 for full units, the fraction for the last one
    const count = (n: number): number => Math.max(1, Math.round(n * share));
    const pkg = `gym${u}`;
    const fieldsOf = (n: number): Field[] => {
      const names = new Set<string>();
      while (names.size < n) names.add(`${pick(WORDS)}_${pick(WORDS)}`);
      return [...names].map((name) => {
        const [type, value] = pick(TYPES);
        const optional = random() < 0.6;
        return { name, type, default: optional ? value(random) : undefined, description: `The ${name.replace(/_/g, ' ')} to use.` };
      });
    };

    // Commands: 20 per unit, spread over the five kinds docdrift reads.
    const kinds: Command['kind'][] = ['pydantic', 'pydantic', 'pydantic', 'dataclass', 'argparse', 'click', 'typer'];
    const cmds: Command[] = [];
    for (let c = 0; c < count(20); c++) {
      const kind = kinds[c % kinds.length]!;
      const verb = `${WORDS[(c * 7 + u) % WORDS.length]}_${WORDS[(c * 3 + 11) % WORDS.length]}`;
      cmds.push({
        name: `${pkg}_${verb}_${c}`,
        alias: `g${u}_${verb}_${c}`,
        module: `${pkg}.commands.cmd_${c}`,
        fn: 'main',
        kind,
        fields: fieldsOf(int(5, 14)),
      });
    }
    for (const cmd of cmds) write(`${pkg}/commands/cmd_${cmds.indexOf(cmd)}.py`, commandModule(cmd));
    write(`${pkg}/__init__.py`, '');
    write(`${pkg}/commands/__init__.py`, '');
    write(
      `${pkg === 'gym0' ? '' : `packages/${pkg}/`}pyproject.toml`,
      `[project]\nname = "${pkg}"\nversion = "0.1.0"\ndependencies = ["pydantic>=2", "hydra-core>=1.3", "click", "typer"]\n\n[project.scripts]\n` +
        cmds.flatMap((c) => [`${c.name} = "${c.module}:${c.fn}"`, `${c.alias} = "${c.module}:${c.fn}"`]).join('\n') + '\n',
    );
    commands.push(...cmds.flatMap((c) => [c.name, c.alias]));

    // Config modules: pydantic models and dataclasses with nested configs.
    for (let m = 0; m < count(40); m++) {
      const lines = ['from dataclasses import dataclass, field', 'from typing import Any, Dict, List, Optional', '', 'from pydantic import BaseModel, Field', ''];
      for (let k = 0; k < int(2, 5); k++) {
        const dc = random() < 0.3;
        lines.push(dc ? '@dataclass' : '', `class Settings${m}_${k}${dc ? '' : '(BaseModel)'}:`, `    """Settings block ${k} of module ${m}."""`, '');
        for (const f of fieldsOf(int(3, 12))) {
          const value = f.default === undefined ? (dc ? '' : ' = Field(description=' + JSON.stringify(f.description) + ')') : dc ? ` = ${dcDefault(f)}` : ` = Field(default=${pyDefault(f)}, description=${JSON.stringify(f.description)})`;
          lines.push(`    ${f.name}: ${f.type}${value}`);
          if (dc) lines.push(`    """${f.description}"""`);
        }
        lines.push('');
      }
      write(`${pkg}/config/settings_${m}.py`, lines.join('\n'));
    }
    write(`${pkg}/config/__init__.py`, '');

    // Ordinary modules: functions, non-config classes, string keys, some `Y.get("key")`.
    const plain = count(800) - count(20) - count(40) - 3;
    for (let m = 0; m < plain; m++) {
      const lines = ['"""Utilities for ' + pick(WORDS) + ' handling."""', 'import json', 'import os', 'from typing import Any, Dict', ''];
      for (let k = 0; k < int(3, 9); k++) {
        lines.push(`def ${pick(WORDS)}_${pick(WORDS)}_${k}(cfg: Dict[str, Any], n: int = ${int(1, 99)}) -> Dict[str, Any]:`);
        lines.push(`    """Return a copy of cfg with ${pick(WORDS)} applied ${k} times."""`);
        lines.push('    out = dict(cfg)');
        for (let s = 0; s < int(2, 8); s++) lines.push(`    out[${JSON.stringify(pick(WORDS) + '_' + pick(WORDS))}] = cfg.get(${JSON.stringify(pick(WORDS))}, n * ${s})`);
        lines.push('    if os.environ.get("DEBUG"):', '        print(json.dumps(out))', '    return out', '', '');
      }
      lines.push(`class Helper${m}:`, `    def __init__(self, value: int = ${m}) -> None:`, '        self.value = value', '', '    def run(self) -> int:', '        return self.value * 2', '');
      write(`${pkg}/${['utils', 'servers', 'agents', 'datasets'][m % 4]}/mod_${m}.py`, lines.join('\n'));
    }

    // Docs: a reference page, READMEs with examples, MDX tutorials, prose pages.
    write(`docs/reference/cli-${u}.mdx`, referencePage(u, cmds));
    const docCount = count(420) - 1;
    for (let d = 0; d < docCount; d++) {
      const roll = d % 10;
      if (roll < 4) {
        const cmd = cmds[d % cmds.length]!;
        exampleCommands.add(cmd.name);
        write(`${pkg === 'gym0' ? '' : `packages/${pkg}/`}benchmarks/bench_${d}/README.md`, readme(cmd, u, d, random));
      } else if (roll < 6) {
        write(`docs/tutorials/unit${u}/tutorial_${d}.mdx`, tutorial(cmds[(d * 3) % cmds.length]!, u, d));
      } else {
        write(`docs/guides/unit${u}/guide_${d}.md`, prose(d, random));
      }
    }
    // Ignored content, which no tool should read.
    write(`build/unit${u}/copy.md`, '# Stale copy\n\n```bash\n' + `${cmds[0]!.name} +not_a_param=1\n` + '```\n');
    write(`.venv/lib/site${u}.py`, 'import pydantic\n');
  }

  // TypeScript: a small `bin` with a config interface and a few supporting modules.
  write('package.json', JSON.stringify({ name: 'gym-ui', version: '0.1.0', type: 'module', bin: { 'gym-ui': 'ts/cli.ts' } }, null, 2) + '\n');
  write('ts/options.ts', '/** Options of the UI server. */\nexport interface UiOptions {\n  /** Port to listen on. @default 8080 */\n  port?: number;\n  /** Host name. */\n  host: string;\n  /** Open a browser. @default false */\n  open?: boolean;\n}\n');
  write('ts/cli.ts', "import type { UiOptions } from './options.js';\n\nexport function main(options: UiOptions): void {\n  console.log(options.host, options.port);\n}\n");
  for (let t = 0; t < 8; t++) write(`ts/util_${t}.ts`, `/** Helper ${t}. */\nexport interface Helper${t}Config {\n  /** Size. */\n  size: number;\n}\nexport const helper${t} = (c: Helper${t}Config): number => c.size * ${t};\n`);
  commands.push('gym-ui');

  docs.sort();
  let committed = false;
  if (options.git !== false) {
    try {
      const git = (...args: string[]): void => {
        execFileSync('git', args, { cwd: root, stdio: 'ignore', env: { ...process.env, GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' } });
      };
      git('init', '-q');
      git('add', '-A');
      // gc.auto=0: a commit of 12,000 files at 10x otherwise starts `git gc --auto` in the
      // background, which repacks .git while the bench copies it (a copy failed on a vanished
      // object, and removing the scratch directory then failed with ENOTEMPTY).
      git('-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', '-c', 'commit.gpgsign=false', '-c', 'gc.auto=0', 'commit', '-q', '-m', 'synthetic repository');
      committed = true;
    } catch {
      committed = false; // no git: the repository is still usable, just not a work tree
    }
  }
  return { root, docs, pythonFiles, typescriptFiles, commands, exampleCommands: [...exampleCommands].sort(), committed };
}

function pyDefault(f: Field): string {
  if (f.default === 'list') return '[]';
  if (f.default === 'dict') return '{}';
  return f.default ?? 'None';
}

function dcDefault(f: Field): string {
  if (f.default === 'list') return 'field(default_factory=list)';
  if (f.default === 'dict') return 'field(default_factory=dict)';
  return f.default ?? 'None';
}

/** A command module in the style its kind calls for. */
function commandModule(cmd: Command): string {
  const cls = `Cmd${cmd.name.replace(/(^|_)(\w)/g, (_, _s, c: string) => c.toUpperCase())}Config`;
  switch (cmd.kind) {
    case 'pydantic':
    case 'dataclass': {
      const dc = cmd.kind === 'dataclass';
      const lines = [
        'from dataclasses import dataclass, field', 'from typing import Any, Dict, List, Optional', '',
        'from omegaconf import DictConfig', 'from pydantic import BaseModel, Field', '', '',
        dc ? '@dataclass' : '', `class ${cls}${dc ? '' : '(BaseModel)'}:`, `    """Configuration of \`${cmd.name}\`."""`, '',
      ];
      // Required fields first, so the dataclass is valid Python.
      const ordered = [...cmd.fields.filter((f) => f.default === undefined), ...cmd.fields.filter((f) => f.default !== undefined)];
      for (const f of ordered) {
        if (dc) lines.push(`    ${f.name}: ${f.type}${f.default === undefined ? '' : ` = ${dcDefault(f)}`}`, `    """${f.description}"""`);
        else lines.push(`    ${f.name}: ${f.type} = Field(${f.default === undefined ? '' : `default=${pyDefault(f)}, `}description=${JSON.stringify(f.description)})`);
      }
      lines.push('', '', 'def main(cfg: Optional[DictConfig] = None) -> None:', `    """Run \`${cmd.name}\`."""`);
      lines.push(dc ? `    config = ${cls}(**(cfg or {}))` : `    config = ${cls}.model_validate(cfg or {})`, '    print(config)', '');
      return lines.join('\n');
    }
    case 'argparse': {
      const lines = ['import argparse', '', '', 'def build_parser() -> argparse.ArgumentParser:', `    parser = argparse.ArgumentParser(description="${cmd.name}")`];
      for (const f of cmd.fields) lines.push(`    parser.add_argument("--${f.name}", ${flagType(f)}help=${JSON.stringify(f.description)})`);
      lines.push('    return parser', '', '', 'def main() -> None:', '    args = build_parser().parse_args()', '    print(args)', '');
      return lines.join('\n');
    }
    case 'click': {
      const lines = ['import click', '', '', '@click.command()'];
      for (const f of cmd.fields) lines.push(`@click.option("--${f.name.replace(/_/g, '-')}", help=${JSON.stringify(f.description)})`);
      lines.push(`def main(${cmd.fields.map((f) => f.name).join(', ')}) -> None:`, `    """Run \`${cmd.name}\`."""`, '    print(locals())', '');
      return lines.join('\n');
    }
    case 'typer': {
      const lines = ['import typer', '', 'app = typer.Typer()', '', '', '@app.command()', 'def run('];
      for (const f of cmd.fields) lines.push(`    ${f.name}: str = typer.Option("x", help=${JSON.stringify(f.description)}),`);
      lines.push(') -> None:', `    """Run \`${cmd.name}\`."""`, '    print(locals())', '', '', 'def main() -> None:', '    app()', '');
      return lines.join('\n');
    }
  }
}

function flagType(f: Field): string {
  if (f.type === 'int') return `type=int, default=${f.default ?? 0}, `;
  if (f.type === 'float') return `type=float, default=${f.default ?? 0}, `;
  if (f.type === 'bool') return 'action="store_true", ';
  return '';
}

/** The spelling of a parameter as users type it. */
function spelled(cmd: Command, f: Field): string {
  // click and typer derive `--a-b` from a parameter `a_b`; argparse keeps the spelling as written.
  if (cmd.kind === 'click' || cmd.kind === 'typer') return `--${f.name.replace(/_/g, '-')}`;
  if (cmd.kind === 'argparse') return `--${f.name}`;
  return f.name;
}

function referencePage(u: number, cmds: Command[]): string {
  const out = ['---', `title: "CLI reference, unit ${u}"`, 'description: "Every command and its parameters."', '---', '',
    "import { Note } from '@/components/note';", '', `# Commands of unit ${u}`, '', '<Note>', 'Pass parameters as Hydra overrides: `+name=value`.', '</Note>', '',
    '## Common options', '', '| Parameter | Type | Description |', '| --- | --- | --- |', '| `config_paths` | List[str] | YAML files to compose. |', ''];
  cmds.forEach((cmd, i) => {
    out.push(`### \`${cmd.name}\` / \`${cmd.alias}\``, '', `Runs the ${cmd.kind} command ${i}.`, '', '| Parameter | Type | Default | Description |', '| --- | --- | --- | --- |');
    // Most rows are right; every fifth command misses a row, every seventh has a stale one.
    cmd.fields.forEach((f, k) => {
      if (i % 5 === 0 && k === cmd.fields.length - 1) return;
      out.push(`| \`${spelled(cmd, f)}\` | ${f.type.replace(/\|/g, '\\|')} | ${f.default === undefined ? '' : `\`${f.default}\``} | ${f.description} |`);
    });
    if (i % 7 === 0) out.push(`| \`${cmd.kind === 'pydantic' || cmd.kind === 'dataclass' ? '' : '--'}stale_option\` | int | | Removed long ago. |`);
    out.push('', '<Tabs>', '<Tab title="bash">', '', '```bash', `${cmd.name} ${cmd.fields.slice(0, 2).map((f) => arg(cmd, f, 'x')).join(' ')}`, '```', '', '</Tab>', '</Tabs>', '');
  });
  return out.join('\n');
}

function arg(cmd: Command, f: Field, value: string): string {
  return cmd.kind === 'pydantic' || cmd.kind === 'dataclass' ? `+${f.name}=${value}` : `${spelled(cmd, f)} ${value}`;
}

function readme(cmd: Command, u: number, d: number, random: () => number): string {
  const used = cmd.fields.filter(() => random() < 0.6);
  const args = used.map((f) => arg(cmd, f, f.type === 'int' ? String(d) : `value_${d}`));
  if (d % 9 === 0 && args.length > 0) args[0] = args[0]!.replace(/([a-z])_/, '$1$1_'); // a typo
  const out = [`# Benchmark ${d}`, '', LOREM, '', '## Prepare', '', '```yaml', `# config for benchmark ${d}`, `${cmd.name}:`, `  dataset: bench_${d}`, `  split: train`, '```', '',
    '## Run', '', `Run it with \`${cmd.name}\`${d % 3 === 0 ? `, see the [reference](${u === 0 ? '../..' : '../../../..'}/docs/reference/cli-${u}.mdx#${cmd.name}--${cmd.alias})` : ''}:`, '', '```bash',
    `${d % 2 === 0 ? 'uv run ' : ''}${cmd.name} \\`, ...args.map((a, i) => `    ${a}${i < args.length - 1 ? ' \\' : ''}`), '```', '',
    '```console', `$ ${cmd.alias} ${args.slice(0, 2).join(' ')} && echo done`, '```', '', '## Results', '', '| metric | value |', '| --- | --- |', `| accuracy | 0.${d % 100} |`, ''];
  return out.join('\n');
}

function tutorial(cmd: Command, u: number, d: number): string {
  return ['---', `title: Tutorial ${d}`, '---', '', "import { Steps, Step } from '@/components/steps';", '', `# Tutorial ${d}`, '', LOREM, '', '<Steps>', '<Step title="Install">', '', '```sh', 'pip install -e .', '```', '', '</Step>', '<Step title="Run">', '',
    '```bash', `${cmd.name} ${cmd.fields.slice(0, 3).map((f) => arg(cmd, f, 'v')).join(' ')}`, '```', '', `See [the reference](../../reference/cli-${u}.mdx).`, '', '</Step>', '</Steps>', ''].join('\n');
}

function prose(d: number, random: () => number): string {
  const out = [`# Guide ${d}`, ''];
  for (let s = 0; s < 3 + (d % 4); s++) {
    out.push(`## Section ${s}`, '', LOREM.repeat(1 + Math.floor(random() * 3)), '', `- item ${s}: **${WORDS[(d + s) % WORDS.length]}**`, `- see [guide ${d + 1}](guide_${d + 1}.md)`, '');
    if (s % 2 === 0) out.push('```python', `print(${s})`, '```', '');
  }
  return out.join('\n');
}
