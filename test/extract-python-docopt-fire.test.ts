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
