/** docopt usage texts, Python Fire components, click collections and typer factories, read statically (issue #30 item 2). */
import { describe, expect, it } from 'vitest';
import { parseDocopt } from '../src/extract/python/docopt-usage.js';
import { extractPythonFlags } from '../src/extract/python/flags.js';

const NAVAL = `Naval Fate.

Usage:
  naval_fate.py ship new <name>...
  naval_fate.py ship <name> move <x> <y> [--speed=<kn>]
  naval_fate.py mine (set|remove) <x> <y> [--moored | --drifting]
  naval_fate.py report [options] <log>
  naval_fate.py -h | --help

Options:
  -h --help     Show this screen.
  --speed=<kn>  Speed in knots [default: 10].
  --moored      Moored (anchored) mine.
  --drifting    Drifting mine.
  -o FILE, --output=FILE  Report file [default: out.txt]
  -q            Quiet.
`;

const flagsOf = async (files: Record<string, string>) => {
  const r = await extractPythonFlags(Object.entries(files).map(([file, text]) => ({ file, text })));
  return {
    diagnostics: r.diagnostics.map((d) => d.message),
    commands: r.commands.map((c) => ({
      target: c.target, path: c.path.join(' '),
      params: c.params.map((p) => `${p.positional ? `<${p.name}>` : p.name}${p.aliases.length ? `|${p.aliases.join('|')}` : ''}${p.default ? `=${p.default.text}` : ''}`),
      ...(c.dynamicSubcommands ? { dynamic: true } : {}),
    })),
  };
};

describe('parseDocopt', () => {
  it('reads sub-commands, positionals, options sections and the [options] shortcut as docopt 0.6.2 does', () => {
    const p = parseDocopt(NAVAL)!;
    expect(p.name).toBe('naval_fate.py');
    const view = p.commands.map((c) => [c.path.join(' '), c.options.map((o) => `${o.long ?? ''}${o.short ?? ''}:${o.argcount}${o.default !== undefined ? `=${o.default}` : ''}`), c.positionals.map((x) => `${x.name}${x.variadic ? '...' : ''}${x.required ? '' : '?'}`)]);
    expect(view).toEqual([
      ['', ['--help-h:0'], []],
      ['ship new', [], ['name...']],
      ['ship', ['--speed:1=10'], ['name', 'x', 'y']],
      ['mine set', ['--moored:0', '--drifting:0'], ['x', 'y']],
      ['mine remove', ['--moored:0', '--drifting:0'], ['x', 'y']],
      // [options]: the section's options that no usage line names.
      ['report', ['--output-o:1=out.txt', '-q:0'], ['log']],
    ]);
    // Offsets point at the spellings in the text.
    const speed = p.commands[2]!.options[0]!;
    expect(NAVAL.slice(speed.offset, speed.offset + speed.length)).toBe('--speed');
  });
  it('gives nothing without exactly one usage section', () => {
    expect(parseDocopt('Options:\n  -v  Verbose.\n')).toBeUndefined();
    expect(parseDocopt('usage: a\n\nUsage: b\n')).toBeUndefined();
  });
  it('bounds the sub-command paths alternation groups expand to (#33 fresh sweep: 4 groups of 30 words overflowed the stack; 20 lines of (300)(300) took 2.2 GB)', () => {
    const group = (g: number, n: number): string => `(${Array.from({ length: n }, (_, i) => `w${g}x${i}`).join(' | ')})`;
    const crash = parseDocopt(`Usage:\n  tool ${[0, 1, 2, 3].map((g) => group(g, 30)).join(' ')} <file>\n`)!;
    // 30 × 30 = 900 paths fit; the third group would make 27,000, so it is not read as commands.
    expect(crash.commands.length).toBeLessThanOrEqual(1_001);
    expect(crash.commands.length).toBeGreaterThan(30);
    const lines = Array.from({ length: 20 }, () => `  tool ${group(0, 300)} ${group(1, 300)}`).join('\n');
    const memory = parseDocopt(`Usage:\n${lines}\n`)!;
    expect(memory.commands.length).toBeLessThanOrEqual(1_001);
    expect(memory.commands.some((c) => c.path.join(' ') === 'w0x299')).toBe(true);
  });
  it('tokenises a usage line with no closing `>` in linear time (s26 sweep 2 D1: 150,000 `<` took 19 s)', () => {
    // A `<` with no `>` after it belongs to no token, as in docopt's regular expression.
    const p = parseDocopt('Usage:\n  tool <file> [--x] a<b <<\n\nOptions:\n  --x  X.\n')!;
    expect(p.commands[0]!.positionals.map((x) => x.name)).toEqual(['file']);
    expect(p.commands[0]!.options.map((o) => o.long)).toEqual(['--x']);
    const started = performance.now();
    const big = parseDocopt(`Usage:\n  tool [--x] ${'<'.repeat(100_000)}\n\nOptions:\n  --x  X.\n`)!;
    expect(performance.now() - started).toBeLessThan(3_000); // 7.7 s before
    expect(big.commands[0]!.options.map((o) => o.long)).toEqual(['--x']);
  });
  it('reads at most 2,000 options of a program, saying how many others were not read (s26 sweep 2 D2: 32,000 took 27 s)', () => {
    const names = Array.from({ length: 3_000 }, (_, i) => `--o${i}`);
    const p = parseDocopt(`Usage:\n  tool ${names.join(' ')} --extra -q\n\nOptions:\n${names.map((n) => `  ${n}  x\n`).join('')}`)!;
    expect(p.sectionOptions).toHaveLength(2_000);
    expect(p.commands[0]!.options).toHaveLength(2_000);
    expect(p.commands[0]!.options.at(-1)!.long).toBe('--o1999');
    // 1,000 section options past the cap (also named in the usage: counted once) and `--extra`, `-q`.
    expect(p.optionsCut).toBe(1_002);
    expect(parseDocopt(NAVAL)!.optionsCut).toBeUndefined();
  });
});

describe('docopt programs', () => {
  it('reads docopt(__doc__) in main() and a module constant, placing flags in the docstring', async () => {
    const r = await flagsOf({
      'nav.py': `"""\n${NAVAL}"""\nfrom docopt import docopt\n\ndef main():\n    docopt(__doc__, version="1")\n`,
      'tool.py': 'import docopt\nUSAGE = """Usage: tool [-v] <src>\n\nOptions:\n  -v --verbose  Talk.\n"""\nargs = docopt.docopt(USAGE)\n',
    });
    expect(r.commands.find((c) => c.target === 'nav:main' && c.path === 'ship')?.params).toEqual(['speed="10"', '<name>', '<x>', '<y>']);
    expect(r.commands.find((c) => c.target === 'tool')?.params).toEqual(['verbose|v=False', '<src>']);
  });
  it('computes a usage text cut out of the docstring by split/join/slicing (grip), with exact positions', async () => {
    const doc = 'grip.command\n~~~~\n\nThe CLI.\n\n\nUsage:\n  grip [options] [<path>]\n\nOptions:\n  --export  Export.\n  -b --browser  Open a tab.\n';
    const code = [
      'from docopt import docopt',
      String.raw`usage = '\n\n\n'.join(__doc__.split('\n\n\n')[1:])`,
      '',
      'def main():',
      "    docopt(usage.strip(), version='1')",
    ].join('\n');
    const r = await extractPythonFlags([{ file: 'grip/command.py', text: `"""\n${doc}"""\n${code}\n` }]);
    const main = r.commands.find((c) => c.target === 'grip.command:main');
    expect(main?.params.map((p) => `${p.name}@${p.location.line}`)).toEqual(['export@12', 'browser@13', 'path@9']);
    expect(r.diagnostics).toEqual([]);
    // A method docdrift does not compute is still said, not guessed.
    const other = await flagsOf({ 'y.py': 'from docopt import docopt\ndocopt(__doc__.expandtabs(4))\n' });
    expect(other.diagnostics).toEqual(['y.py:2: the usage text of `docopt(…)` is built at run time; docdrift does not read its flags']);
  });
  it('says once that a usage text built at run time is not read', async () => {
    const r = await flagsOf({ 'x.py': 'from docopt import docopt\nU = "Usage: x {}".format(1)\ndocopt(U)\n' });
    expect(r.commands).toEqual([]);
    expect(r.diagnostics).toEqual(['x.py:3: the usage text of `docopt(…)` is built at run time; docdrift does not read its flags']);
  });
});

describe('fire programs', () => {
  it('reads Fire(Class): methods are sub-commands, __init__ flags go to every command, short letters when unambiguous', async () => {
    const r = await flagsOf({
      'cli.py': 'import fire\nclass T:\n    def __init__(self, seed: int = 0):\n        pass\n    def fit(self, data_dir, epochs=10, eval_every=2):\n        pass\n    def _x(self):\n        pass\ndef main():\n    fire.Fire(T)\n',
    });
    expect(r.commands.filter((c) => c.target === 'cli:main')).toEqual([
      { target: 'cli:main', path: '', params: ['seed|s=0'] },
      { target: 'cli:main', path: 'fit', params: ['data_dir|data-dir|d', 'epochs=10', 'eval_every|eval-every=2', 'seed|s=0'] },
    ]);
  });
  it('reads Fire(fn), Fire({...}) and Fire()', async () => {
    const r = await flagsOf({
      'a.py': 'import fire\ndef go(n=1, **kw):\n    pass\nfire.Fire(go)\n',
      'b.py': 'from fire import Fire\ndef up(x):\n    pass\ndef down(y=2):\n    pass\nif __name__ == "__main__":\n    Fire({"up": up, "down": down})\n',
      'c.py': 'import fire\ndef hello(name="w"):\n    pass\ndef _private():\n    pass\nfire.Fire()\n',
    });
    expect(r.commands.map((c) => `${c.target} [${c.path}] ${c.params.join(' ')}`)).toEqual([
      'a [] n=1', 'b [] ', 'b [down] y=2', 'b [up] x', 'c [] ', 'c [hello] name|n="w"',
    ]);
  });
  it('reads a Fire({...}) dict up to 1,000 keys: past them a warning names the file and the cap, the other sub-commands are unknown (#33 fresh sweep D5: 50,000 keys took 725 MB)', async () => {
    const keys = (n: number): string => Array.from({ length: n }, (_, i) => `"c${i}": f`).join(', ');
    const r = await extractPythonFlags([{ file: 'tool/cli.py', text: `import fire\ndef f(seed=0):\n    pass\ndef main():\n    fire.Fire({${keys(50_000)}})\n` }]);
    const mine = r.commands.filter((c) => c.target === 'tool.cli:main');
    expect(mine).toHaveLength(1001);
    expect(mine.find((c) => c.path.length === 0)).toMatchObject({ dynamicSubcommands: true });
    expect(mine.find((c) => c.path.join(' ') === 'c999')?.params.map((p) => p.name)).toEqual(['seed']);
    expect(mine.some((c) => c.path[0] === 'c1000')).toBe(false);
    expect(r.diagnostics.map((d) => [d.severity, d.location.file, d.message])).toEqual([
      ['warn', 'tool/cli.py', 'tool/cli.py:5: the `Fire({…})` dict has 50,000 keys; only the first 1,000 are read as sub-commands, the others are unknown'],
    ]);
    // At the cap: every key read, no warning.
    const at = await flagsOf({ 'x.py': `import fire\ndef f(seed=0):\n    pass\nfire.Fire({${keys(1000)}})\n` });
    expect(at.commands).toHaveLength(1001);
    expect(at.diagnostics).toEqual([]);
    expect(at.commands.some((c) => c.dynamic)).toBe(false);
  });
  it('places the options of 5,000 docopt usage lines in linear time, and reads their first 1,000 commands with a warning (#33 fresh sweep D5: 19 s, 378 MB)', async () => {
    const options = Array.from({ length: 50 }, (_, j) => `[--o${j}]`).join(' ');
    const lines = Array.from({ length: 5000 }, (_, i) => `  tool c${i} ${options}\n`).join('');
    const started = performance.now();
    const r = await extractPythonFlags([{ file: 'tool/cli.py', text: `"""Usage:\n${lines}"""\nfrom docopt import docopt\ndef main():\n    docopt(__doc__)\n` }]);
    const last = r.commands.find((c) => c.path.join(' ') === 'c998');
    const column = `  tool c998 ${options}`.indexOf('--o49') + 1;
    expect(last?.params.find((p) => p.name === 'o49')?.location).toMatchObject({ line: 1000, column });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(r.commands.some((c) => c.path[0] === 'c1000')).toBe(false);
    expect(r.commands.filter((c) => c.path.length > 0)).toHaveLength(999);
    expect(r.commands.find((c) => c.path.length === 0)).toMatchObject({ dynamicSubcommands: true });
    expect(r.diagnostics.map((d) => d.message)).toEqual(['tool/cli.py:5005: the usage text of `docopt(…)` gives 5,001 commands; only the first 1,000 are read, the others are unknown']);
  }, 60_000);
});

describe('click and typer programs assembled at run time', () => {
  it('reads CommandCollection sources and a Group subclass merging groups; a folder-loading group is dynamic', async () => {
    const r = await flagsOf({
      'a.py': 'import click\n@click.group()\ndef ga():\n    pass\n@ga.command()\n@click.option("--x")\ndef one(x):\n    pass\n',
      'b.py': 'import click\nimport os\nfrom a import ga\ncli = click.CommandCollection(sources=[ga])\nclass M(click.MultiCommand):\n    def list_commands(self, ctx):\n        return os.listdir(".")\nplug = M()\n',
    });
    expect(r.commands.filter((c) => c.target.startsWith('b:'))).toEqual([
      { target: 'b:cli', path: '', params: [] },
      { target: 'b:cli', path: 'one', params: ['x'] },
      { target: 'b:plug', path: '', params: [], dynamic: true },
    ]);
  });
  it('a sub-group whose cls delegates to another object (OctoPrint\'s LazyGroup: self._impl.get_command) is dynamic; super() and click.Group calls are not', async () => {
    const r = await flagsOf({
      'common.py': 'import click\nfrom importlib import import_module\nclass LazyGroup(click.Group):\n    def __init__(self, import_name, **kw):\n        self._import_name = import_name\n        click.Group.__init__(self, **kw)\n'
        + '    @property\n    def _impl(self):\n        m, n = self._import_name.split(":", 1)\n        return getattr(import_module(m), n)\n'
        + '    def get_command(self, ctx, name):\n        return self._impl.get_command(ctx, name)\n    def list_commands(self, ctx):\n        return self._impl.list_commands(ctx)\n'
        + 'class Sorted(click.Group):\n    def list_commands(self, ctx):\n        return sorted(click.Group.list_commands(self, ctx))\n    def get_command(self, ctx, name):\n        return super().get_command(ctx, name)\n',
      'cli.py': 'import click\nfrom common import LazyGroup, Sorted\n@click.group()\ndef main():\n    pass\n'
        + '@main.group(name="plugins", cls=LazyGroup, import_name="pkg.plugins:cli")\ndef plugins():\n    pass\n'
        + '@main.group(name="tidy", cls=Sorted)\ndef tidy():\n    pass\n',
    });
    expect(r.commands.filter((c) => c.target === 'cli:main' && c.path !== '')).toEqual([
      { target: 'cli:main', path: 'plugins', params: [], dynamic: true },
      { target: 'cli:main', path: 'tidy', params: [] },
    ]);
  });
  it('reads @click.group(cls=click.CommandCollection, sources=[…]); an unknown source makes it dynamic', async () => {
    const r = await flagsOf({
      'server.py': 'import click\n@click.group()\ndef cli():\n    pass\n@cli.command(name="serve")\n@click.option("--port", type=int)\ndef serve(port):\n    pass\n',
      'main.py': 'import click\nfrom server import cli as server_commands\n@click.group()\ndef sub():\n    pass\n@sub.command()\ndef user():\n    pass\n'
        + '@click.group(name="octo", cls=click.CommandCollection, sources=[sub, server_commands])\n@click.option("--basedir")\ndef octo(basedir):\n    pass\n'
        + '@click.group(cls=click.CommandCollection, sources=[sub, plugins_group()])\ndef other():\n    pass\n',
    });
    expect(r.commands.filter((c) => c.target.startsWith('main:o'))).toEqual([
      { target: 'main:octo', path: '', params: ['basedir'] },
      { target: 'main:octo', path: 'serve', params: ['port'] },
      { target: 'main:octo', path: 'user', params: [] },
      { target: 'main:other', path: '', params: [], dynamic: true },
      { target: 'main:other', path: 'user', params: [] },
    ]);
  });
  it('reads @standard_options(): a helper whose body declares the options through a local alias of click.option', async () => {
    const r = await flagsOf({
      'cli.py': [
        'import click',
        'def hidden_option(*decls, **attrs):',
        '    attrs["hidden"] = True',
        '    return click.option(*decls, **attrs)',
        'def bulk_options(options):',
        '    def decorator(f):',
        '        for option in options:',
        '            option(f)',
        '        return f',
        '    return decorator',
        'def standard_options(hidden=False):',
        '    factory = click.option',
        '    if hidden:',
        '        factory = hidden_option',
        '    options = [factory("--basedir", "-b", type=click.Path()), factory("--safe", is_flag=True)]',
        '    return bulk_options(options)',
        '@click.command()',
        '@standard_options()',
        '@click.option("--port", type=int)',
        'def serve(port):',
        '    pass',
        '',
      ].join('\n'),
    });
    expect(r.commands.find((c) => c.target === 'cli:serve')?.params).toEqual(['basedir|b', 'safe=False', 'port']);
  });
  it('reads a factory registering a list of commands in a loop, and commands a module adds to its result (OPAL)', async () => {
    const r = await flagsOf({
      'common/commands.py': 'import typer\ndef generate_secret(size: int = typer.Option(32)):\n    pass\ndef version():\n    pass\nall_commands = [generate_secret, version]\n',
      'common/typer_app.py': 'import typer\nfrom .commands import all_commands\ndef get_typer_app():\n    app = typer.Typer()\n    for cmd in all_commands:\n        app.command()(cmd)\n    return app\n',
      'server/cli.py': 'import typer\nfrom common.typer_app import get_typer_app\napp = get_typer_app()\n@app.command()\ndef run(engine_type: str = typer.Option("uvicorn")):\n    pass\n',
      'client/cli.py': 'from common.typer_app import get_typer_app\napp = get_typer_app()\n',
    });
    const view = (target: string) => r.commands.filter((c) => c.target === target).map((c) => `${c.path}:${c.params.join(',')}`);
    expect(view('server.cli:app')).toEqual([':install-completion,show-completion', 'generate-secret:size=32', 'run:engine-type="uvicorn"', 'version:']);
    // Each call makes its own app: the server's `run` is not the client's.
    expect(view('client.cli:app')).toEqual([':install-completion,show-completion', 'generate-secret:size=32', 'version:']);
    expect(view('common.typer_app:get_typer_app')).toEqual([':install-completion,show-completion', 'generate-secret:size=32', 'version:']);
  });
  it('reads a typer app built in a function and returned', async () => {
    const r = await flagsOf({
      'cli.py': 'import typer\ndef make():\n    app = typer.Typer(add_completion=False)\n    @app.command()\n    def a(k: int = 1):\n        pass\n    @app.command()\n    def b():\n        pass\n    return app\napp = make()\n',
    });
    expect(r.commands.filter((c) => c.target === 'cli:app')).toEqual([
      { target: 'cli:app', path: '', params: [] },
      { target: 'cli:app', path: 'a', params: ['k=1'] },
      { target: 'cli:app', path: 'b', params: [] },
    ]);
  });
});
