/**
 * First-run notes and hints (issue 14, items 2, 3 and 5), end to end: the built CLI is spawned on
 * small real-shaped projects, and its stderr lines, exit code and JSON report are checked.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BIN, removeTempDirs, tempProject } from './helpers.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = CLI_BIN;
afterAll(removeTempDirs);

function run(root: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, '--root', root, '--no-cache', ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, lines: r.stderr.split('\n').filter(Boolean) };
}

const PYPROJECT = '[project]\nname = "tool"\nversion = "1.0.0"\n\n[project.scripts]\ntool = "tool.cli:main"\n';
const ARGPARSE = [
  'import argparse',
  '',
  '',
  'def main() -> None:',
  '    parser = argparse.ArgumentParser(prog="tool")',
  '    parser.add_argument("--epochs", type=int, default=3, help="Passes over the data.")',
  '    parser.add_argument("--output", help="Where to write.")',
  '    parser.parse_args()',
  '',
].join('\n');

/** A project whose `tool` command has two argparse flags, plus `files`. */
function toolProject(files: Record<string, string>): string {
  return tempProject({ 'pyproject.toml': PYPROJECT, 'tool/__init__.py': '', 'tool/cli.py': ARGPARSE, ...files }, 'docdrift-first-run-');
}

describe('no silent passes', () => {
  it('a project without any command says so, names the config key, and exits 2 (nothing was checked)', () => {
    const root = tempProject({ 'README.md': '# notes\n\nNothing to run.\n' });
    const { code, stdout, lines } = run(root);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(lines).toEqual([
      expect.stringMatching(/^docdrift: no command found \(.*\), so nothing was checked\. Map one in docdrift\.config\.json, e\.g\. \{"commands"/),
      'docdrift: nothing was checked: no command or config class was found, so this run cannot say the docs are in sync (exit 2). Follow the notes above to map a command or a reference; ' +
        'if checking nothing is expected here (docs not written yet), pass --allow-unchecked or set "allowUnchecked": true in the config.',
    ]);
  });

  it('a package.json npm cannot read is a warning at its position, not "no bin" over a silent pass', () => {
    const ts = { 'src/cli.ts': 'export interface Options {\n  /** Port. */\n  port?: number;\n}\nexport function main(o: Options): void {}\n', 'README.md': '# tool\n\n```sh\ntool --port 3\n```\n' };
    const root = tempProject({ 'package.json': '{\n  "name": "tool",\n  "bin": { "tool": "src/cli.ts" },\n}\n', ...ts });
    const r = run(root, '--format', 'json');
    const results = (JSON.parse(r.stdout) as { results: Array<{ ruleId: string; file: string; line: number; severity: string; message: string }> }).results;
    expect(results).toEqual([expect.objectContaining({ ruleId: 'parse-error', file: 'package.json', line: 4, severity: 'warn' })]);
    expect(results[0]!.message).toMatch(/^package\.json:4:1: invalid JSON \(PropertyNameExpected\); its bin entries are not read$/);
    // A byte order mark is no error (npm strips it): the bin is read, and its command named.
    const bom = tempProject({ 'package.json': '\uFEFF{\n  "name": "tool",\n  "bin": { "tool": "src/cli.ts" }\n}\n', ...ts });
    const b = run(bom);
    expect(b.stdout).toBe('');
    expect(b.lines[0]).toMatch(/^docdrift: command `tool` has 1 parameter \(interface Options \(src\/cli\.ts:1\)\)/);
  });

  it('a package.json whose bin npm could not run is a warning naming why; nesting too deep is one too, not a crash', () => {
    const cases: Array<[string, RegExp]> = [
      ['["src/cli.ts"]\n', /^package\.json:1:1: not a JSON object; its bin entries are not read$/],
      ['{\n  "name": "tool",\n  "bin": 42\n}\n', /^package\.json:3:10: `bin` must be a path or an object of command names to paths; it is not read$/],
      ['{\n  "bin": "src/cli.ts"\n}\n', /^package\.json:2:3: `bin` is a path but `name` is not a non-empty string, so the command has no name; it is not read$/],
      ['{\n  "name": "tool",\n  "bin": { "tool": 5 }\n}\n', /^package\.json:3:12: `bin` entry `tool` is not a path; it is not read$/],
      ['{\n  "name": "tool",\n  "bin": { "": "src/cli.ts" }\n}\n', /^package\.json:3:12: a `bin` entry has an empty command name; it is not read$/],
      [`${'{"a":'.repeat(6000)}1${'}'.repeat(6000)}\n`, /^package\.json:1:1: invalid JSON \(nested too deeply to read\); its bin entries are not read$/],
    ];
    for (const [text, message] of cases) {
      const root = tempProject({ 'package.json': text, 'src/cli.ts': 'export function main(): void {}\n', 'README.md': '# tool\n' });
      // No command is left, so nothing was checked: exit 2, the report still printed.
      const r = run(root, '--format', 'json');
      expect(r.code, text.slice(0, 40)).toBe(2);
      const results = (JSON.parse(r.stdout) as { results: Array<{ ruleId: string; message: string }> }).results;
      expect(results.map((m) => m.ruleId), text.slice(0, 40)).toEqual(['parse-error']);
      expect(results[0]!.message).toMatch(message);
    }
    // Of two `bin` keys the last counts, as JSON.parse and npm read it.
    const twice = tempProject({ 'package.json': '{"name": "t", "bin": {"old": "gone.js"}, "bin": {"tool": "src/cli.ts"}}\n', 'src/cli.ts': 'export interface Options {\n  /** Port. */\n  port?: number;\n}\nexport function main(o: Options): void {}\n', 'README.md': '# tool\n' });
    expect(run(twice).lines[0]).toMatch(/^docdrift: command `tool` has 1 parameter/);
  });

  it('a command with flags and no reference section gets one line, and a last line says nothing was compared', () => {
    const root = toolProject({ 'README.md': '# tool\n\nRun it.\n' });
    const { code, lines } = run(root);
    expect(code).toBe(2);
    expect(lines).toEqual([
      'docdrift: command `tool` has 2 parameters (CLI flags in tool/cli.py:6) but no reference section was found: no heading names it in inline code. ' +
        'Add a section headed `` `tool` ``, or set `commands."tool".sections` to the heading that documents it.',
      'docdrift: nothing was compared: 1 command(s) have known parameters, but no reference section documents them and no example runs them. ' +
        'Name the command in inline code in a heading of its reference, or set `commands.<name>.sections` (headings) or `reference` (documents).',
      expect.stringMatching(/^docdrift: nothing was checked: 1 command\(s\) have known parameters, but none of the 1 document\(s\) has a reference section, an example or a flag of theirs, so .*\(exit 2\)/),
    ]);
  });

  it('flags named in prose were compared: no "nothing was compared" line when one of them is reported', () => {
    const root = toolProject({ 'README.md': '# tool\n\nTrain longer with `--epoch` if the loss is still falling.\n' });
    const { code, stdout, lines } = run(root);
    expect(code).toBe(1);
    expect(stdout).toContain('`--epoch` is named in prose on a page of `tool`');
    expect(lines).toEqual([expect.stringMatching(/^docdrift: command `tool` has 2 parameters .* but no reference section was found/)]);
  });

  it('--quiet silences the notes on stderr; JSON and --summary keep them (issue #32 item 2)', () => {
    const root = toolProject({ 'README.md': '# tool\n\nTrain longer with `--epoch` if the loss is still falling.\n' });
    const quiet = run(root, '--quiet');
    expect(quiet.code).toBe(1);
    expect(quiet.lines).toEqual([]);
    const summary = path.join(root, 'summary.md');
    const json = run(root, '--quiet', '--format', 'json', '--summary', summary);
    expect((JSON.parse(json.stdout) as { notes: string[] }).notes).toEqual([expect.stringMatching(/^command `tool` has 2 parameters .* but no reference section was found/)]);
    expect(readFileSync(summary, 'utf8')).toContain('but no reference section was found');
    expect(json.lines).toEqual([]);
  });

  it('--quiet still prints the notes that explain why a run that checked nothing exits 2', () => {
    const { code, lines } = run(toolProject({ 'README.md': '# tool\n\nRun it.\n' }), '--quiet');
    expect(code).toBe(2);
    expect(lines[0]).toMatch(/^docdrift: command `tool` has 2 parameters/);
    expect(lines.at(-1)).toMatch(/^docdrift: nothing was checked/);
  });

  it('a heading that names the command but holds no layout docdrift reads is named with its line', () => {
    const root = toolProject({ 'README.md': '# tool\n\n## `tool`\n\nIt trains for `--epochs` passes.\n' });
    const { lines } = run(root);
    expect(lines[0]).toBe(
      'docdrift: command `tool` has 2 parameters (CLI flags in tool/cli.py:6) but no reference section was found: ' +
        'the heading naming it (README.md:3) holds no table, list or parameter headings docdrift reads (see docs/reference-layouts.md).',
    );
  });

  it('a configured sections heading and a reference glob that match nothing readable get a line each', () => {
    const root = toolProject({
      'README.md': '# tool\n\n## Usage\n\nRun `tool` with the flags you need.\n',
      'docdrift.config.json': JSON.stringify({ reference: ['README.md', 'docs/reference/**'], commands: { tool: { sections: ['Usage', 'Options'] } } }),
    });
    const { code, lines } = run(root);
    // Nothing matched, so nothing was compared.
    expect(code).toBe(2);
    expect(lines).toContain(
      'docdrift: `commands."tool".sections`: "Usage" matched 1 heading (README.md:3), none with a table, list or heading layout docdrift reads (see docs/reference-layouts.md).',
    );
    expect(lines).toContain('docdrift: `commands."tool".sections`: "Options" matched no heading in the `reference` documents.');
    expect(lines).toContain('docdrift: `reference`: "docs/reference/**" matched no document (the globs are relative to the project root).');
    expect(lines).toContain('docdrift: `reference`: "README.md" matched 1 document, none with a reference section of a known command.');
  });

  it('--format json carries the same notes and the coverage per command', () => {
    const root = toolProject({
      'README.md': '# tool\n\n## `tool`\n\n| Flag | Description |\n| --- | --- |\n| `--epochs` | Passes. |\n\n```bash\ntool --epochs 2 --output out\n```\n',
    });
    const { stdout, lines } = run(root, '--format', 'json');
    const report = JSON.parse(stdout) as { version: number; notes: string[]; commands: unknown[] };
    expect(report.version).toBe(1);
    expect(report.notes).toEqual(lines.map((l) => l.replace(/^docdrift: /, '')));
    expect(report.commands).toEqual([
      { name: 'tool', aliases: [], paramsKnown: true, sections: 1, source: 'CLI flags in tool/cli.py:6', parameters: 2, documented: 1, used: 2, explained: 1, parameterNames: ['epochs', 'output'] },
    ]);
  });
});

describe('exit status when nothing was checked (issue #32 item 1)', () => {
  const IN_SYNC = '# tool\n\n## `tool`\n\n| Flag | Description |\n| --- | --- |\n| `--epochs` | Passes. |\n| `--output` | Where. |\n\n```bash\ntool --epochs 2\n```\n';

  it('a project whose docs are in sync and were compared exits 0, its verdict "checked"', () => {
    const root = toolProject({ 'README.md': IN_SYNC });
    const r = run(root, '--format', 'json');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect((JSON.parse(r.stdout) as { verdict: unknown }).verdict).toEqual({ status: 'checked', checkedCommands: 1, uncheckedCommands: 0, allowed: false });
    const sarif = JSON.parse(run(root, '--format', 'sarif').stdout) as { runs: Array<{ invocations: Array<{ executionSuccessful: boolean; toolExecutionNotifications?: unknown[] }> }> };
    expect(sarif.runs[0]!.invocations).toEqual([{ executionSuccessful: true, properties: { checkedCommands: 1, uncheckedCommands: 0 } }]);
  });

  it('a project with no documents at all exits 2 and says why', () => {
    const root = toolProject({});
    const { code, lines } = run(root);
    expect(code).toBe(2);
    expect(lines.at(-1)).toMatch(/^docdrift: nothing was checked: 1 command\(s\) have known parameters, but no document was found \(see `docs` in the config\), so .*--allow-unchecked/);
  });

  it('JSON, SARIF and --summary carry the same verdict; the report is still printed', () => {
    const root = tempProject({ 'README.md': '# notes\n' });
    const summary = path.join(root, 'summary.md');
    const json = run(root, '--format', 'json', '--summary', summary);
    expect(json.code).toBe(2);
    const report = JSON.parse(json.stdout) as { verdict: unknown; notes: string[] };
    expect(report.verdict).toEqual({ status: 'unchecked', checkedCommands: 0, uncheckedCommands: 0, reason: 'no command or config class was found', allowed: false });
    expect(readFileSync(summary, 'utf8')).toContain('**Nothing was checked** (exit 2): no command or config class was found.');
    const sarif = run(root, '--format', 'sarif');
    expect(sarif.code).toBe(2);
    const invocation = (JSON.parse(sarif.stdout) as { runs: Array<{ invocations: Array<Record<string, unknown>> }> }).runs[0]!.invocations[0]!;
    expect(invocation['executionSuccessful']).toBe(false);
    // The summary the first run wrote in the project is not read, and the run says so (s37 sweep D9).
    expect(invocation['toolExecutionNotifications']).toEqual([
      { level: 'note', message: { text: expect.stringMatching(/^summary\.md is not read as documentation: it holds docdrift's own `--summary` reports/) } },
      { level: 'note', message: { text: report.notes[0] } },
      { level: 'error', message: { text: 'nothing was checked: no command or config class was found.' }, descriptor: { id: 'nothing-checked' } },
    ]);
  });

  it('--allow-unchecked and "allowUnchecked": true make it expected: exit 0, said once, the verdict marked allowed', () => {
    const root = tempProject({ 'README.md': '# notes\n' });
    const flag = run(root, '--allow-unchecked');
    expect(flag.code).toBe(0);
    expect(flag.lines.at(-1)).toBe('docdrift: nothing was checked: no command or config class was found (allowed by --allow-unchecked or "allowUnchecked": true).');
    const configured = tempProject({ 'README.md': '# notes\n', 'docdrift.config.json': '{ "allowUnchecked": true }\n' });
    const json = run(configured, '--format', 'json');
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as { verdict: { allowed: boolean } }).verdict.allowed).toBe(true);
    const sarif = JSON.parse(run(configured, '--format', 'sarif').stdout) as { runs: Array<{ invocations: Array<{ executionSuccessful: boolean }> }> };
    expect(sarif.runs[0]!.invocations[0]!.executionSuccessful).toBe(true);
    // A wrong type is a config error naming the key.
    const bad = tempProject({ 'README.md': '# notes\n', 'docdrift.config.json': '{ "allowUnchecked": "yes" }\n' });
    const r = run(bad);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('allowUnchecked');
  });

  it('a finding is a check: a run that reports drift exits 1, not 2', () => {
    const root = toolProject({ 'README.md': '# tool\n\nTrain longer with `--epoch` if the loss is still falling.\n' });
    expect(run(root).code).toBe(1);
  });

  it('the verdict survives the run cache: a cached unchecked run exits 2 too', () => {
    const root = tempProject({ 'README.md': '# notes\n' });
    const once = spawnSync(process.execPath, [BIN, '--root', root], { cwd: root, encoding: 'utf8' });
    const twice = spawnSync(process.execPath, [BIN, '--root', root, '--debug'], { cwd: root, encoding: 'utf8' });
    expect([once.status, twice.status]).toEqual([2, 2]);
    expect(twice.stderr).toContain('cache hit');
    expect(twice.stderr).toContain('nothing was checked: no command or config class was found');
  });
});

describe('hints that fit the case', () => {
  it('parameters unknown: says why and which config keys fix it, never "docdrift config"', () => {
    const root = tempProject({
      'pyproject.toml': PYPROJECT,
      'tool/__init__.py': '',
      'tool/cli.py': 'import sys\n\n\ndef main() -> None:\n    print(sys.argv)\n',
      'README.md': '# tool\n\n```bash\ntool --fast\n```\n',
    });
    const { code, stderr, lines } = run(root);
    expect(code).toBe(2);
    expect(lines).toEqual([
      'docdrift: found 1 command(s) but the parameters of none, so nothing was checked. `tool`: its entry point `tool.cli:main` builds no CLI parser docdrift reads ' +
        '(argparse, click, typer, cyclopts, jsonargparse, decli, docopt, fire, yargs, commander, util.parseArgs, arg, mri, minimist, oclif, clipanion, citty, cac, sade, meow) and names no config class; set `commands."tool".config` (a class or a list), `commands."tool".flags`, ' +
        'or `commands."tool".program` when the parser lives in another module, or `"kind": "config-file"` when the entry documents a config file.',
      expect.stringMatching(/^docdrift: nothing was checked: the parameters of none of the 1 command\(s\) found are known, so .*\(exit 2\)/),
    ]);
    expect(stderr).not.toContain('docdrift config)');
  });

  it('parameters unknown for the program while helper scripts have known flags: still said, not a silent pass', () => {
    const root = tempProject({
      'pyproject.toml': PYPROJECT,
      'tool/__init__.py': '',
      'tool/cli.py': 'import sys\n\n\ndef main() -> None:\n    print(sys.argv)\n',
      'scripts/prep.py': 'import argparse\n\nif __name__ == "__main__":\n    p = argparse.ArgumentParser()\n    p.add_argument("--input")\n    p.parse_args()\n',
      'README.md': '# tool\n\n```bash\ntool --fast\n```\n',
    });
    const { code, lines } = run(root);
    // The helper script's flags are known, but no document runs or documents it: nothing was compared.
    expect(code).toBe(2);
    expect(lines).toEqual([
      'docdrift: the parameters of the command (scripts aside) are unknown, so it was not checked. `tool`: its entry point `tool.cli:main` builds no CLI parser docdrift reads ' +
        '(argparse, click, typer, cyclopts, jsonargparse, decli, docopt, fire, yargs, commander, util.parseArgs, arg, mri, minimist, oclif, clipanion, citty, cac, sade, meow) and names no config class; set `commands."tool".config` (a class or a list), `commands."tool".flags`, ' +
        'or `commands."tool".program` when the parser lives in another module, or `"kind": "config-file"` when the entry documents a config file.',
      expect.stringMatching(/^docdrift: nothing was checked: 1 command\(s\) have known parameters, but none of the 1 document\(s\) has a reference section, an example or a flag of theirs, so .*\(exit 2\)/),
    ]);
  });

  it('one program of several with unknown parameters (a parser of the project\'s own DSL) is said once, though the others were checked', () => {
    const root = tempProject({
      'pyproject.toml': PYPROJECT.replace('tool = "tool.cli:main"\n', 'tool = "tool.cli:main"\ntool-dsl = "tool.dsl:main"\n'),
      'tool/__init__.py': '',
      'tool/cli.py': ARGPARSE,
      'tool/dsl.py': 'import sys\n\n\ndef main() -> None:\n    spec = {"--fast": bool}\n    print(spec, sys.argv)\n',
      'docs/cli.md': '# CLI\n\n## `tool`\n\n| Flag | Description |\n| --- | --- |\n| `--epochs` | Passes. |\n| `--output` | Where. |\n',
      'README.md': '# tool\n\nSee [the CLI](docs/cli.md).\n\n```bash\ntool --epochs 2\ntool-dsl --fast\n```\n',
    });
    const { code, lines } = run(root);
    expect(code).toBe(0);
    expect(lines).toEqual([
      'docdrift: the parameters of 1 command are unknown, so its references and examples were not checked (the other commands were). `tool-dsl`: its entry point `tool.dsl:main` builds no CLI parser docdrift reads ' +
        '(argparse, click, typer, cyclopts, jsonargparse, decli, docopt, fire, yargs, commander, util.parseArgs, arg, mri, minimist, oclif, clipanion, citty, cac, sade, meow) and names no config class; set `commands."tool-dsl".config` (a class or a list), `commands."tool-dsl".flags`, ' +
        'or `commands."tool-dsl".program` when the parser lives in another module, or `"kind": "config-file"` when the entry documents a config file.',
    ]);
  });

  it('a program that declares no parameter is not said to be configured by "docdrift config"', () => {
    const root = tempProject({
      'pyproject.toml': PYPROJECT,
      'tool/__init__.py': '',
      'tool/cli.py': 'import argparse\n\n\ndef main() -> None:\n    argparse.ArgumentParser(prog="tool").parse_args()\n',
      'README.md': '# tool\n\n```bash\ntool --fast\n```\n',
    });
    const { code, stdout } = run(root);
    expect(code).toBe(1);
    expect(stdout).toContain('`fast` is not a parameter of `tool` (config: no parameter declared in code)');
    expect(stdout).not.toContain('docdrift config');
  });
});

describe('exit status of config errors', () => {
  const fixture = (kind: string) => path.join(ROOT, 'fixtures/first-run/dict-flag-field', kind);

  it('flags[].field naming a key under a Dict field is accepted', () => {
    const { code, stdout, stderr } = run(fixture('valid'));
    expect(stderr).toBe('');
    expect(stdout).toBe('');
    expect(code).toBe(0);
  });

  it('a config error exits 2 naming the key, with no report printed', () => {
    const { code, stdout, stderr } = run(fixture('invalid'), '--format', 'json');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe('docdrift: commands."gen".flags[0].field: "extras.seed" is not a field of GenConfig; did you mean "extra.seed"?\n');
  });
});

describe('a config mapping that drops discovered classes', () => {
  const CODE = [
    'from dataclasses import dataclass',
    '',
    '',
    '@dataclass',
    'class TrainConfig:',
    '    epochs: int = 3',
    '',
    '',
    '@dataclass',
    'class EvalConfig:',
    '    metric: str = "acc"',
    '',
    '',
    'def main(cfg: dict) -> None:',
    '    train = TrainConfig(**cfg)',
    '    evaluation = EvalConfig(**cfg)',
    '    print(train, evaluation)',
    '',
  ].join('\n');
  const project = (config: unknown) => tempProject({
    'pyproject.toml': PYPROJECT,
    'tool/__init__.py': '',
    'tool/cli.py': CODE,
    'README.md': '# tool\n\n## `tool`\n\n| Name | Description |\n| --- | --- |\n| `epochs` | Passes. |\n| `metric` | Score. |\n',
    'docdrift.config.json': JSON.stringify(config),
  }, 'docdrift-dropped-');

  it('says on stderr which classes discovery found that `config` leaves out', () => {
    const { lines } = run(project({ commands: { tool: { config: 'TrainConfig' } } }));
    expect(lines).toContain(
      'docdrift: `commands."tool".config` replaces the config class discovery found for `tool` (`tool.cli.EvalConfig`): its fields are not checked. Add it to the list to keep it.',
    );
  });

  it('says nothing when the list keeps every discovered class', () => {
    const { lines } = run(project({ commands: { tool: { config: ['TrainConfig', 'tool.cli.EvalConfig'] } } }));
    expect(lines.filter((l) => l.includes('replaces the config'))).toEqual([]);
  });
});
