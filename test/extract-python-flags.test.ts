/** Golden-file tests for CLI flag extraction (fixtures/extract/python-flags/<case>/expected.json; UPDATE_EXPECTED=1 rewrites them), plus unit tests of the naming helpers. */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeGoldenCases, listFiles } from './golden.js';
import { clickCommandName } from '../src/extract/python/flags-click.js';
import { clickOptionNames, isSequenceAnnotation, parseClickDecls, stripPrefix } from '../src/extract/python/flags-common.js';
import { cycloptsName } from '../src/extract/python/flags-cyclopts.js';
import { typerCommandName } from '../src/extract/python/flags-typer.js';
import { extractPythonFlags } from '../src/extract/python/flags.js';
import { extractPython } from '../src/extract/python/index.js';

const casesDir = fileURLToPath(new URL('../fixtures/extract/python-flags/', import.meta.url));


async function runCase(caseDir: string): Promise<unknown> {
  const sources = listFiles(caseDir)
    .map((path) => relative(caseDir, path).split('\\').join('/'))
    .filter((file) => file.endsWith('.py'))
    .map((file) => ({ file, text: readFileSync(join(caseDir, file), 'utf8') }));
  const fresh = JSON.parse(JSON.stringify(await extractPythonFlags(sources)));
  // The engine's way: the trees and scans of the class extraction, read again instead of parsed.
  const classes = await extractPython(sources, { retain: () => true });
  expect(classes.retained.map((m) => m.file).sort()).toEqual(sources.map((s) => s.file).sort());
  expect(JSON.parse(JSON.stringify(await extractPythonFlags(sources, { parsed: classes.retained })))).toEqual(fresh);
  return fresh;
}

describeGoldenCases('python flag extraction fixtures', casesDir, runCase);

describe('flags from retained trees', () => {
  it('rescans a retained tree whose module name differs under the flag pass\'s package roots', async () => {
    const cli = { file: 'src/cli.py', text: 'import argparse\n\ndef build():\n    p = argparse.ArgumentParser()\n    p.add_argument("--seed", type=int, default=1)\n    return p\n' };
    const all = [{ file: 'src/__init__.py', text: '' }, cli];
    // With src/__init__.py, `src` is a package (module src.cli); the flag pass alone sees module `cli`.
    const classes = await extractPython(all, { retain: (s) => s.file === cli.file });
    expect(classes.retained.map((m) => [m.file, m.module])).toEqual([['src/cli.py', 'src.cli']]);
    const viaTree = await extractPythonFlags([cli], { parsed: classes.retained });
    expect(viaTree).toEqual(await extractPythonFlags([cli]));
    expect(viaTree.commands.map((c) => [c.target, c.params.map((p) => p.name)])).toEqual([['cli:build', ['seed']]]);
  });
});

describe('flag naming', () => {
  it('names click commands like click 8.2+', () => {
    expect(clickCommandName('add_item_command')).toBe('add-item');
    expect(clickCommandName('db_group')).toBe('db');
    expect(clickCommandName('Init_Cmd')).toBe('init');
    expect(clickCommandName('command')).toBe('command');
    expect(clickCommandName('list_items')).toBe('list-items');
  });
  it('names typer commands like typer', () => {
    expect(typerCommandName('run_job')).toBe('run-job');
    expect(typerCommandName('Show')).toBe('show');
  });
  it('names cyclopts commands and parameters like its default_name_transform', () => {
    // Expected values follow cyclopts/utils.py: PascalCase → snake_case, lower, `_` → `-`, strip `-`.
    expect(cycloptsName('push_image')).toBe('push-image');
    expect(cycloptsName('BuildHTTPServer')).toBe('build-http-server');
    expect(cycloptsName('_private_')).toBe('private');
    expect(cycloptsName('v2Model')).toBe('v2-model');
    expect(cycloptsName('Layer2Norm')).toBe('layer2-norm');
  });
  it('strips prefix characters', () => {
    expect(stripPrefix('--dry-run')).toBe('dry-run');
    expect(stripPrefix('-k')).toBe('k');
    expect(stripPrefix('++plus', '+')).toBe('plus');
  });
  it('parses click declarations', () => {
    const node = {} as never;
    const decls = (...texts: string[]) => parseClickDecls(texts.map((text) => ({ text, node })));
    expect(clickOptionNames(decls('--shout/--no-shout'))).toMatchObject({ name: 'shout', aliases: [], dest: 'shout', negatable: true });
    expect(clickOptionNames(decls('-a', '--all', 'show_all'))).toMatchObject({ name: 'all', aliases: ['a'], dest: 'show_all', negatable: false });
    expect(clickOptionNames(decls('--enable/--disable'))).toMatchObject({ name: 'enable', aliases: ['disable'], negatable: false });
    expect(clickOptionNames(decls('/debug;/no-debug'))).toMatchObject({ name: 'debug', aliases: [], negatable: true });
    expect(clickOptionNames(decls('-X', '--Some-Flag'))).toMatchObject({ name: 'Some-Flag', aliases: ['X'], dest: 'some_flag' });
    expect(clickOptionNames(decls('-n'))).toMatchObject({ name: 'n', dest: 'n' });
    expect(clickOptionNames(decls('name'))).toBeUndefined();
  });
});

describe('variadic positionals', () => {
  it('reads sequence annotations as taking every remaining word, fixed-length tuples not', () => {
    for (const t of ['list[str]', 'List[Path]', 'Optional[list[str]]', 'list[str] | None', 'tuple[str, ...]', 'Sequence[str]', 'typing.List[int]']) {
      expect({ t, variadic: isSequenceAnnotation(t) }).toEqual({ t, variadic: true });
    }
    for (const t of ['str', 'tuple[str, int]', 'dict[str, str]', 'Optional[str]', 'Literal["a", "b"]']) {
      expect({ t, variadic: isSequenceAnnotation(t) }).toEqual({ t, variadic: false });
    }
  });
  it('marks argparse allow_abbrev per parser: default on, off for allow_abbrev=False', async () => {
    const text = [
      'import argparse',
      'def build():',
      '    p = argparse.ArgumentParser()',
      '    subs = p.add_subparsers()',
      '    a = subs.add_parser("a")',
      '    b = subs.add_parser("b", allow_abbrev=False)',
      '    a.add_argument("rest", nargs="+")',
      '    b.add_argument("one")',
      '    return p',
      '',
    ].join('\n');
    const { commands } = await extractPythonFlags([{ file: 'cli.py', text }]);
    expect(commands.map((c) => [c.path.join(' '), c.abbreviatesLongFlags ?? false])).toEqual([['', true], ['a', true], ['b', false]]);
    expect(commands.flatMap((c) => c.params.map((p) => [p.name, p.variadic ?? false]))).toEqual([['rest', true], ['one', false]]);
  });
});

describe('extractPythonFlags', () => {
  it('returns nothing for files without CLI code', async () => {
    const result = await extractPythonFlags([{ file: 'a.py', text: 'def f(x: int = 1):\n    return x\n' }]);
    expect(result).toEqual({ commands: [], diagnostics: [] });
  });
  it('ignores look-alike names that do not come from argparse, click or typer', async () => {
    const text = [
      'class ArgumentParser:', '    def add_argument(self, *a): pass',
      'def build():', '    p = ArgumentParser()', '    p.add_argument("--x")', '    return p',
      'def command():', '    return lambda f: f',
      '@command()', 'def run(y=1): pass',
    ].join('\n');
    const result = await extractPythonFlags([{ file: 'm.py', text }]);
    expect(result.commands).toEqual([]);
  });
});

describe('extractPythonFlags edge cases', () => {
  const paths = async (files: Record<string, string>): Promise<string[]> => {
    const result = await extractPythonFlags(Object.entries(files).map(([file, text]) => ({ file, text })));
    return result.commands.map((c) => `${c.target} ${c.path.join(' ')}: ${c.params.map((p) => p.name).join(',')}`.trim());
  };

  it('names typer sub-apps from the callback, and merges unnamed ones', async () => {
    const text = [
      'import typer',
      'app = typer.Typer()',
      'named = typer.Typer()',
      'merged = typer.Typer()',
      '@named.callback()',
      'def db_tools(url: str = ""): pass',
      '@named.command()',
      'def migrate(): pass',
      '@merged.command()',
      'def serve(port: int = 80): pass',
      '@app.command()',
      'def hello(): pass',
      'app.add_typer(named)',
      'app.add_typer(merged)',
    ].join('\n');
    expect(await paths({ 'm.py': text })).toEqual([
      'm:app : install-completion,show-completion',
      'm:app db-tools: url',
      'm:app db-tools migrate:',
      'm:app hello:',
      'm:app serve: port',
    ]);
  });

  it('keeps underscores when the project patches typer.main.get_command_name to the identity', async () => {
    // typer derives command names and default option names from get_command_name (NeMo-Skills patches it).
    const text = [
      'import typer',
      'typer.main.get_command_name = lambda name: name',
      'app = typer.Typer(add_completion=False)',
      '@app.command()',
      'def start_server(server_gpus: int = 1, dry_run: bool = False): pass',
      '@app.command()',
      'def other(): pass',
    ].join('\n');
    expect(await paths({ 'm.py': text })).toEqual(['m:app :', 'm:app other:', 'm:app start_server: server_gpus,dry_run']);
  });

  it('reads jsonargparse CLI of a module-level dict constant, with dataclass parameters as dotted options', async () => {
    const text = [
      'from dataclasses import dataclass, field',
      'from jsonargparse import CLI',
      '@dataclass',
      'class TrainArgs:',
      '    epochs: int = 1',
      '    lr: float = 0.1',
      '    steps: int = field(init=False, default=0)', // not an __init__ parameter: no option (s47 sweep K4)
      'def finetune(checkpoint_dir: str, train: TrainArgs = TrainArgs(), lora_r: int = 8): pass',
      'def chat(checkpoint_dir: str): pass',
      'PARSER_DATA = {"finetune_lora": finetune, "chat": chat}',
      'def main():',
      '    CLI(PARSER_DATA)',
    ].join('\n');
    expect(await paths({ 'm.py': text })).toEqual([
      'm:main : config,print_config',
      'm:main chat: checkpoint_dir,config,print_config',
      'm:main finetune_lora: checkpoint_dir,train,train.epochs,train.lr,lora_r,config,print_config',
    ]);
  });

  it('follows a module-level parser imported and extended by another module', async () => {
    expect(await paths({
      'pkg/__init__.py': '',
      'pkg/cli.py': 'import argparse\nparser = argparse.ArgumentParser()\nparser.add_argument("--a")\n',
      'pkg/main.py': 'from .cli import parser\n\ndef main():\n    parser.add_argument("--b")\n    parser.parse_args()\n',
    })).toEqual(['pkg.main:main : a,b']);
  });

  it('reads rich-click and bare click decorators imported by name', async () => {
    const text = [
      'import rich_click as click',
      'from click import command, option',
      '@click.command()',
      '@click.option("--x")',
      'def one(x): pass',
      '@command',
      '@option("-y")',
      'def two(y): pass',
    ].join('\n');
    expect(await paths({ 'r.py': text })).toEqual(['r:one : x', 'r:two : y']);
  });
});

describe('click objects, lazy groups and options made at run time (#30)', () => {
  const flags = (cmd: { params: Array<{ name: string; aliases: string[]; default?: { text?: string } }> }): string[] =>
    cmd.params.map((p) => `${p.name}${p.aliases.length > 0 ? `/${p.aliases.join('/')}` : ''}${p.default?.text !== undefined ? `=${p.default.text}` : ''}`);

  it('reads click.Command/click.Group objects, their params lists and params.append', async () => {
    const text = [
      'import click',
      'def serve(port): pass',
      'serve_cmd = click.Command("serve", params=[click.Option(["--port", "-p"], default=8080, type=int), click.Argument(["root"])], callback=serve)',
      'other = click.Command("other", callback=serve)',
      'cli = click.Group("tool", commands={"serve": serve_cmd, "run": other})',
      'cli.params.append(click.Option(["--verbose", "-v"], is_flag=True))',
      '',
    ].join('\n');
    const { commands } = await extractPythonFlags([{ file: 'pkg/cli.py', text }]);
    const tool = commands.filter((c) => c.target === 'pkg.cli:cli');
    expect(tool.map((c) => [c.path.join(' '), flags(c)])).toEqual([
      ['', ['verbose/v=False']],
      ['run', []],
      ['serve', ['port/p=8080', 'root']],
    ]);
    expect(tool.some((c) => c.unreadFlags || c.passesUnknownFlags)).toBe(false);
  });

  it('resolves a lazy group\'s import paths (dictionary and whole-group forms) to the project\'s commands', async () => {
    const lazy = [
      'import importlib, click',
      'class LazyGroup(click.Group):',
      '    def __init__(self, *a, lazy_subcommands=None, import_name=None, **k):',
      '        super().__init__(*a, **k)',
      '        self.lazy = lazy_subcommands or {}',
      '    def get_command(self, ctx, name):',
      '        return self._load(name)',
      '    def _load(self, name):',
      '        mod, attr = self.lazy[name].rsplit(".", 1)',
      '        return getattr(importlib.import_module(mod), attr)',
      '',
    ].join('\n');
    const cli = [
      'import click',
      'from pkg.lazy import LazyGroup',
      '@click.group(cls=LazyGroup, lazy_subcommands={"db": "pkg.db.db_cli", "gone": "pkg.missing.cmd"})',
      'def main(): pass',
      '@main.group(name="tools", cls=LazyGroup, import_name="pkg.db:db_cli")',
      'def tools(): pass',
      '',
    ].join('\n');
    const db = 'import click\n@click.group()\n@click.option("--dsn")\ndef db_cli(): pass\n@db_cli.command()\n@click.option("--force", is_flag=True)\ndef migrate(force): pass\n';
    const { commands } = await extractPythonFlags([
      { file: 'pkg/lazy.py', text: lazy }, { file: 'pkg/cli.py', text: cli }, { file: 'pkg/db.py', text: db },
    ]);
    const main = commands.filter((c) => c.target === 'pkg.cli:main');
    expect(main.map((c) => [c.path.join(' '), flags(c), c.dynamicSubcommands ?? false])).toEqual([
      // "gone" names a module the project does not have: the group may have commands docdrift did not read.
      ['', [], true],
      ['db', ['dsn'], false],
      ['db migrate', ['force=False'], false],
      ['tools', ['dsn'], false],
      ['tools migrate', ['force=False'], false],
    ]);
  });

  it('marks a command whose options are made at run time, naming the construct, and nothing else', async () => {
    const text = [
      'import click',
      'NAMES = load_names()',
      'def make_options():',
      '    return [click.Option([f"--{n}"]) for n in NAMES]',
      '@click.group()',
      '@click.option("--config")',
      'def main(config): pass',
      '@main.command()',
      '@click.option(*NAMES)',
      'def star(**kw): pass',
      '@main.command()',
      '@click.option("--plain")',
      'def plain(plain): pass',
      'extended = click.Command("extended", params=make_options())',
      'main.add_command(extended)',
      'plain.params.extend(make_options())',
      '',
    ].join('\n');
    const { commands } = await extractPythonFlags([{ file: 'pkg/cli.py', text }]);
    const of = (path: string) => commands.find((c) => c.target === 'pkg.cli:main' && c.path.join(' ') === path)!;
    expect(of('').unreadFlags).toBeUndefined();
    expect(of('star').unreadFlags).toMatchObject({ location: { file: 'pkg/cli.py', line: 9 }, construct: 'click.option(*NAMES)' });
    expect(of('extended').unreadFlags).toMatchObject({ location: { line: 14 }, construct: 'make_options()' });
    expect(of('plain')).toMatchObject({ passesUnknownFlags: true, unreadFlags: { location: { line: 16 }, construct: 'make_options()' } });
    expect(flags(of('plain'))).toEqual(['plain']);
  });

  it('follows the entry through methods of a config object to options it applies in a loop (OPAL\'s Confi)', async () => {
    const confi = [
      'import click',
      'class Confi:',
      '    def cli(self, typer_app=None):',
      '        return self.get_cli(typer_app)()',
      '    def get_cli(self, app):',
      '        return create_click_cli(self.entries, app)',
      'def create_click_cli(entries, callback):',
      '    cli = callback',
      '    for key, entry in entries.items():',
      '        cli = click.option(*entry.keys, **entry.kwargs)(cli)',
      '    return click.group()(cli)',
      '',
    ].join('\n');
    const cli = [
      'import typer',
      'from pkg.confi import Confi',
      'from pkg.config import server_config',
      'app = typer.Typer()',
      '@app.command()',
      'def run(workers: int = 1): pass',
      'def cli():',
      '    server_config.cli(typer_app=app)',
      '',
    ].join('\n');
    // pkg/config.py (`server_config = ServerConfig()`) names no CLI library: the flag pass does not read it.
    const { commands } = await extractPythonFlags([{ file: 'pkg/confi.py', text: confi }, { file: 'pkg/cli.py', text: cli }]);
    const root = commands.find((c) => c.target === 'pkg.cli:app' && c.path.length === 0)!;
    expect(root).toMatchObject({ passesUnknownFlags: true, unreadFlags: { location: { file: 'pkg/confi.py', line: 10 }, construct: 'click.option(*entry.keys, **entry.kwargs)' } });
    expect(commands.find((c) => c.target === 'pkg.cli:app' && c.path.join(' ') === 'run')?.unreadFlags).toBeUndefined();
    // The same program without the hand-off: nothing is said.
    const alone = await extractPythonFlags([{ file: 'pkg/confi.py', text: confi }, { file: 'pkg/cli.py', text: cli.replace('server_config.cli(typer_app=app)', 'app()') }]);
    expect(alone.commands.some((c) => c.unreadFlags)).toBe(false);
  });
});

describe('decorator factories called with arguments, and wrappers that hide options (#30)', () => {
  const options = [
    'import click',
    'class HiddenOption(click.Option):',
    '    def get_help_record(self, ctx):',
    '        pass',
    'def hidden_option(*param_decls, **attrs):',
    '    def decorator(f):',
    '        click.decorators._param_memo(f, HiddenOption(param_decls, **attrs))',
    '        return f',
    '    return decorator',
    'def quiet(*decls, **attrs):',
    '    attrs["hidden"] = True',
    '    return click.option(*decls, **attrs)',
    'def secret(*decls, **kw):',
    '    kw.setdefault("hidden", True)',
    '    return click.option(*decls, **kw)',
    'def internal(*decls, **kw):',
    '    return click.option(*decls, hidden=True, **kw)',
    'def plain(*decls, **kw):',
    '    return click.option(*decls, **kw)',
    'def standard(hidden=False, extra=None):',
    '    factory = click.option',
    '    if hidden:',
    '        factory = hidden_option',
    '    opts = [factory("--basedir", "-b"), factory("--verbose", "-v", count=True)]',
    '    if extra is not None:',
    '        opts.append(click.option("--extra"))',
    '    def decorator(f):',
    '        for o in reversed(opts):',
    '            f = o(f)',
    '        return f',
    '    return decorator',
    'def ternary(hidden=False):',
    '    factory = hidden_option if hidden else click.option',
    '    return factory("--tern")',
    'def levels(level="user"):',
    '    if level == "user":',
    '        factory = click.option',
    '    elif level == "dev":',
    '        factory = quiet',
    '    else:',
    '        factory = internal',
    '    return factory("--lvl")',
    '',
  ].join('\n');
  const read = async (decorators: string[]): Promise<Array<[string, boolean]>> => {
    const cli = ['import click', 'from pkg.options import hidden_option, internal, levels, plain, quiet, secret, standard, ternary', '@click.command()', ...decorators, 'def main(**kw): pass', ''].join('\n');
    const { commands } = await extractPythonFlags([{ file: 'pkg/options.py', text: options }, { file: 'pkg/cli.py', text: cli }]);
    const main = commands.find((c) => c.target === 'pkg.cli:main');
    return (main?.params ?? []).map((p) => [p.name, p.hidden]);
  };

  it('binds defaults, keywords and positionals, so a known `if` picks the option maker', async () => {
    expect(await read(['@standard()'])).toEqual([['basedir', false], ['verbose', false]]);
    expect(await read(['@standard(hidden=True)'])).toEqual([['basedir', true], ['verbose', true]]);
    expect(await read(['@standard(True)'])).toEqual([['basedir', true], ['verbose', true]]);
    expect(await read(['@standard(hidden=False, extra="x")'])).toEqual([['basedir', false], ['verbose', false], ['extra', false]]);
  });

  it('follows elif/else chains and conditional expressions on known values', async () => {
    expect(await read(['@ternary()', '@levels()'])).toEqual([['tern', false], ['lvl', false]]);
    expect(await read(['@ternary(hidden=True)', '@levels("dev")'])).toEqual([['tern', true], ['lvl', true]]);
    expect(await read(['@levels(level="ops")'])).toEqual([['lvl', true]]);
  });

  it('keeps the first binding when the condition is not known', async () => {
    expect(await read(['@standard(hidden=HIDE)'])).toEqual([['basedir', false], ['verbose', false]]);
  });

  it('reads project wrappers of click.option, hidden when they hide', async () => {
    const got = await read(['@quiet("--trace", is_flag=True)', '@secret("--token")', '@internal("--dump")', '@plain("--name")', '@hidden_option("--raw")']);
    expect(got).toEqual([['trace', true], ['token', true], ['dump', true], ['name', false], ['raw', true]]);
  });
});

describe('a command that takes flags docdrift does not know (#30)', () => {
  it('is said once per construct in the notes, and its unread flags are not reported', async () => {
    const { lintTwin } = await import('./helpers.js');
    const dir = fileURLToPath(new URL('../fixtures/frameworks/click-runtime-options/valid/', import.meta.url));
    const { result, messages } = await lintTwin(dir);
    expect(messages).toEqual([]);
    const said = result.notes.filter((n) => n.includes('takes flags docdrift does not know'));
    expect(said).toEqual([
      expect.stringMatching(/^`forge` takes flags docdrift does not know: options made at run time by `click\.option\(f"--\{key.*\(forge\/settings\.py:16\)/),
      expect.stringMatching(/^`forge build` takes .*`make_options\(\["trace", "profile"\]\)` \(forge\/common\.py:9\)/),
    ]);
  });
});

describe('argparse REMAINDER positionals', () => {
  it('marks a parser whose positional takes argparse.REMAINDER as passing the rest on (twine dispatches to registered commands)', async () => {
    const text = [
      'import argparse',
      'from importlib import metadata',
      'def dispatch(argv):',
      '    registered = metadata.entry_points(group="tool.commands")',
      '    parser = argparse.ArgumentParser(prog="tool")',
      '    parser.add_argument("--no-color", action="store_true")',
      '    parser.add_argument("command", choices=registered.names)',
      '    parser.add_argument("args", help=argparse.SUPPRESS, nargs=argparse.REMAINDER)',
      '    return parser.parse_args(argv)',
      '',
    ].join('\n');
    const { commands } = await extractPythonFlags([{ file: 'tool/cli.py', text }]);
    const root = commands.find((c) => c.target === 'tool.cli:dispatch' && c.path.length === 0)!;
    expect(root.passesUnknownFlags).toBe(true);
    expect(root.params.filter((p) => !p.positional).map((p) => p.name)).toEqual(['no-color']);
  });

  it('does not mark a parser whose positional only takes nargs="*" (argparse still parses flags between its words)', async () => {
    const text = ['import argparse', 'def main():', '    p = argparse.ArgumentParser(prog="t")', '    p.add_argument("files", nargs="*")', '    p.add_argument("--fast", action="store_true")', '    return p.parse_args()', ''].join('\n');
    const { commands } = await extractPythonFlags([{ file: 't/cli.py', text }]);
    expect(commands.find((c) => c.target === 't.cli:main')!.passesUnknownFlags).toBeUndefined();
  });
});

describe('argparse flags spelled at run time (#30)', () => {
  it('marks the parser (and the parsers it is a parent of) with the first add_argument it cannot spell', async () => {
    const text = [
      'import argparse',
      'from tool.registry import load_settings',
      'def build_parser():',
      '    common = argparse.ArgumentParser(add_help=False)',
      '    for name, default in load_settings().items():',
      '        common.add_argument(f"--{name}", default=default)',
      '    parser = argparse.ArgumentParser(prog="tool", parents=[common])',
      '    parser.add_argument("--config", default="a.toml")',
      '    sub = parser.add_subparsers()',
      '    run = sub.add_parser("run")',
      '    run.add_argument("--fast", action="store_true")',
      '    for flag in ["--slow", "--safe"]:',
      '        run.add_argument(flag, action="store_true")',
      '    return parser',
      '',
    ].join('\n');
    const { commands } = await extractPythonFlags([{ file: 'tool/cli.py', text }]);
    const root = commands.find((c) => c.target === 'tool.cli:build_parser' && c.path.length === 0)!;
    expect(root).toMatchObject({ passesUnknownFlags: true, unreadFlags: { location: { line: 6 }, construct: 'common.add_argument(f"--{name}", default=default)' } });
    expect(root.params.map((p) => p.name)).toEqual(['config']);
    // Computed from a known list: read, nothing said.
    const run = commands.find((c) => c.target === 'tool.cli:build_parser' && c.path.join(' ') === 'run')!;
    expect(run.params.map((p) => p.name)).toEqual(['fast', 'slow', 'safe']);
    expect(run.unreadFlags).toBeUndefined();
  });

  it('marks a program whose entry sets a callback\'s __signature__ (a signature built from data)', async () => {
    const text = [
      'import inspect, typer',
      'app = typer.Typer()',
      'def make_callback(fields):',
      '    def callback(**kwargs): pass',
      '    callback.__signature__ = inspect.Signature([inspect.Parameter(f, inspect.Parameter.KEYWORD_ONLY) for f in fields])',
      '    return callback',
      '@app.command()',
      'def run(fast: bool = False): pass',
      'def main():',
      '    app.callback()(make_callback(load_fields()))',
      '    app()',
      '',
    ].join('\n');
    const { commands } = await extractPythonFlags([{ file: 'tool/cli.py', text }]);
    const root = commands.find((c) => c.target === 'tool.cli:app' && c.path.length === 0)!;
    expect(root.unreadFlags).toMatchObject({ location: { line: 5 }, construct: expect.stringMatching(/^callback\.__signature__ = inspect\.Signature/) });
  });
});

describe('click decorator loops over tuples, `+` and decorator functions (sqlite-utils)', () => {
  const text = [
    'import click',
    'from plugins import plugin_options',
    '_import_options = (',
    '    click.option("--csv", is_flag=True),',
    '    click.option("--empty-null", is_flag=True),',
    ')',
    'def load_extension_option(fn):',
    '    return click.option("--load-extension", multiple=True)(fn)',
    'def output_options(fn):',
    '    for decorator in reversed((click.option("--nl", is_flag=True), click.option("--arrays", is_flag=True))):',
    '        fn = decorator(fn)',
    '    return fn',
    'def insert_upsert_options(*, require_pk=False):',
    '    def inner(fn):',
    '        for decorator in reversed(',
    '            (click.argument("path"), click.option("--pk", multiple=True, required=require_pk))',
    '            + _import_options',
    '            + (click.option("--not-null", multiple=True), load_extension_option)',
    '        ):',
    '            fn = decorator(fn)',
    '        return fn',
    '    return inner',
    'def plugin_loop(fn):',
    '    for decorator in plugin_options() + _import_options:',
    '        fn = decorator(fn)',
    '    return fn',
    '@click.group()',
    'def cli(): pass',
    '@cli.command()',
    '@output_options',
    'def query(**kw): pass',
    '@cli.command()',
    '@insert_upsert_options()',
    'def insert(**kw): pass',
    '@cli.command()',
    '@plugin_loop',
    'def load(**kw): pass',
    '',
  ].join('\n');

  it('reads the options of a tuple literal, of `+` operands and of a decorator function named in the tuple', async () => {
    const { commands } = await extractPythonFlags([{ file: 'tool/cli.py', text }]);
    const of = (name: string) => commands.find((c) => c.path.join(' ') === name)!;
    expect(of('query').params.map((p) => p.name).sort()).toEqual(['arrays', 'nl']);
    expect(of('query').unreadFlags).toBeUndefined();
    expect(of('insert').params.map((p) => p.name).sort()).toEqual(['csv', 'empty-null', 'load-extension', 'not-null', 'path', 'pk']);
    expect(of('insert').unreadFlags).toBeUndefined();
  });

  it('an operand docdrift cannot read (a call) leaves the command with options made at run time, the others read', async () => {
    const { commands } = await extractPythonFlags([{ file: 'tool/cli.py', text }]);
    const load = commands.find((c) => c.path.join(' ') === 'load')!;
    expect(load.params.map((p) => p.name).sort()).toEqual(['csv', 'empty-null']);
    expect(load.unreadFlags).toMatchObject({ location: { file: 'tool/cli.py', line: 24 } });
  });
});

describe('flag names spelled with \\N{name} escapes (s46 sweep H12)', () => {
  it('reads `\\N{LATIN SMALL LETTER A}` as the letter (str and f-string), keeps a raw string raw, and leaves a name CPython refuses unknown', async () => {
    // `python3 -c '…--help'` on this parser lists --name, --mode=MODE, --n\N{LATIN SMALL LETTER A}me-raw and --debug.
    const text = [
      'import argparse',
      'def build_parser(kind):',
      '    p = argparse.ArgumentParser(prog="tool")',
      '    p.add_argument("--n\\N{LATIN SMALL LETTER A}me", default="run")',
      '    p.add_argument(f"--mo\\N{latin small letter d}e", default="a")',
      '    p.add_argument(r"--n\\N{LATIN SMALL LETTER A}me-raw")',
      '    p.add_argument("--d\\N{LATIN SMALL LETTER E}bug", action="store_true")',
      '    return p',
      'def build_other():',
      '    q = argparse.ArgumentParser(prog="other")',
      '    q.add_argument("--seed", type=int)',
      '    q.add_argument("--n\\N{LATIN SMALL LETTER NO SUCH}me")',
      '    return q',
      '',
    ].join('\n');
    const { commands } = await extractPythonFlags([{ file: 'tool/cli.py', text }]);
    const tool = commands.find((c) => c.target === 'tool.cli:build_parser')!;
    expect(tool.params.map((p) => p.name)).toEqual(['name', 'mode', 'n\\N{LATIN SMALL LETTER A}me-raw', 'debug']);
    expect(tool.params[0]).toMatchObject({ dest: 'name', location: { line: 4, column: 20 } });
    expect(tool.unreadFlags).toBeUndefined();
    // Not a flag named `n\N{LATIN SMALL LETTER NO SUCH}me`: a flag docdrift cannot spell.
    const other = commands.find((c) => c.target === 'tool.cli:build_other')!;
    expect(other.params.map((p) => p.name)).toEqual(['seed']);
    expect(other).toMatchObject({ passesUnknownFlags: true, unreadFlags: { location: { line: 12 } } });
  });
});

describe('a `\\N{name}` escape CPython does not know (s47 sweep J3)', () => {
  it('gives the file one parse-error saying CPython refuses it, at the escape; known names, raw and bytes literals and comments give none', async () => {
    // CPython 3.11: compile() of this text raises "SyntaxError: (unicode error) 'unicodeescape' codec can't decode bytes in position 4-29: unknown Unicode character name".
    const lines = [
      'import argparse  # "\\N{NO SUCH NAME}" in a comment',
      'def build_parser():',
      '    p = argparse.ArgumentParser(prog="tool", description=r"\\N{NO SUCH NAME}" + str(b"\\N{NO SUCH NAME}"))',
      '    p.add_argument("--seed", type=int, help="Random seed \\N{BULLET}.")',
      '    p.add_argument("--na\\N{NO SUCH CHARACTER NAME}me", default="run")',
      '    p.add_argument(f"--mo\\N{NO SUCH NAME}de")',
      '    return p',
      '',
    ];
    const refused = await extractPythonFlags([{ file: 'tool/cli.py', text: lines.join('\n') }]);
    expect(refused.diagnostics).toEqual([{
      ruleId: 'parse-error',
      severity: 'warn',
      message: 'tool/cli.py:5:25: `\\N{NO SUCH CHARACTER NAME}` names no Unicode character CPython knows, so CPython refuses the file ("SyntaxError: (unicode error) … unknown Unicode character name"); definitions in the rest of the file are read as for a syntax error',
      location: { file: 'tool/cli.py', line: 5, column: 25 },
    }]);
    const read = await extractPythonFlags([{ file: 'tool/cli.py', text: lines.filter((l) => !l.includes('CHARACTER NAME') && !l.includes('f"')).join('\n') }]);
    expect(read.diagnostics).toEqual([]);
    expect(read.commands[0]!.params.map((p) => p.name)).toEqual(['seed']);
  });
});

describe('identifiers NFKC-normalised as CPython reads them (PEP 3131; s46 sweep H3)', () => {
  it('reads a fullwidth parameter, keyword and parser variable by their normalised names', async () => {
    // CPython: `def run(ｎame: str = "run")` has the parameter `name` (typer's `--name`);
    // `ｄest=` is the keyword `dest`; `ｐ` and `p` are the same variable.
    const typer = 'import typer\napp = typer.Typer()\n@app.command()\ndef run(\uff4eame: str = "run", seed: int = 0):\n    pass\n';
    const argparse = [
      'import argparse',
      'def build_parser():',
      '    \uff50 = argparse.ArgumentParser(prog="tool")',
      '    p.add_argument("--out", \uff44est="target", default="a")',
      '    \uff50.add_argument("--fast", action="store_true")',
      '    return p',
      '',
    ].join('\n');
    const { commands } = await extractPythonFlags([{ file: 'tool/app.py', text: typer }, { file: 'tool/cli.py', text: argparse }]);
    const run = commands.find((c) => c.target === 'tool.app:app')!;
    expect(run.params.slice(0, 2).map((p) => [p.name, p.location.line, p.location.column])).toEqual([['name', 4, 9], ['seed', 4, 28]]);
    const tool = commands.find((c) => c.target === 'tool.cli:build_parser')!;
    expect(tool.params.map((p) => [p.name, p.dest])).toEqual([['out', 'target'], ['fast', 'fast']]);
  });
});
