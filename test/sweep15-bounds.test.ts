// Fresh #33 sweep (part 3), items 1, 7 and 8 and their kin: evaluators over chains thousands of
// links long stay linear and bounded, and files read by a fixed name are read safely. Unit tests
// where one reader is at fault, a spawned CLI (npm run build first) where the run is. Each fails on
// the main it was written against (cd5f256): a timeout, a stack overflow or a hang.
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractJsonSchemas, MAX_ALLOF_DEPTH } from '../src/extract/jsonschema/index.js';
import { MAX_ATTACHED_PROGRAM_COMMANDS, MAX_MODULE_COMMANDS, MAX_SUBCOMMAND_DEPTH } from '../src/extract/python/flags-common.js';
import { MAX_SOURCE_DEPTH } from '../src/extract/python/flags-click.js';
import { extractPythonFlags } from '../src/extract/python/flags.js';
import { compareDefault } from '../src/model/compare.js';
import { readSetupPyEntryPoints } from '../src/extract/python/setup-py.js';
import { readProjectFile, ReadFileError } from '../src/shared/read-file.js';
import { CLI_BIN, removeTempDirs, tempProject } from './helpers.js';

afterAll(() => removeTempDirs());

/** CPU milliseconds `work` takes (the machine is shared: wall time says little). */
async function cpuMs(work: () => Promise<void> | void): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

const flags = async (files: Record<string, string>) => extractPythonFlags(Object.entries(files).map(([file, text]) => ({ file, text })));

describe('click CommandCollection chains (#33 sweep item 1)', () => {
  const chain = (n: number): string => {
    let s = 'import click\n\n@click.group()\ndef g0():\n    pass\n\n@g0.command()\n@click.option("--seed")\ndef run(seed):\n    pass\n\n';
    for (let i = 1; i <= n; i++) s += `g${i} = click.CommandCollection(sources=[g${i - 1}])\n`;
    return s;
  };

  it('reads 3,000 links in linear work (2,000 took 37.8 s of a run, 5,000 over 120 s)', { timeout: 120_000 }, async () => {
    let r: Awaited<ReturnType<typeof flags>> | undefined;
    const ms = await cpuMs(async () => {
      r = await flags({ 'coll.py': chain(3000) });
    });
    const of = (name: string) => r!.commands.filter((c) => c.target === `coll:${name}`).map((c) => `${c.path.join(' ')}${c.dynamicSubcommands ? ' (dynamic)' : ''}`);
    // A collection over a collection has the sub-commands of both.
    expect(of('g2')).toEqual(['', 'run']);
    expect(of(`g${MAX_SOURCE_DEPTH}`)).toEqual(['', 'run']);
    // Past the depth limit: the sub-commands are unknown, said so.
    expect(of(`g${MAX_SOURCE_DEPTH + 1}`)).toEqual([' (dynamic)']);
    expect(of('g3000')).toEqual([' (dynamic)']);
    // ~2 s of CPU on an idle machine (the whole extraction, parsing included).
    expect(ms).toBeLessThan(20_000);
  });

  it('merges sources whatever order they are read in (a collection over a collection read later)', async () => {
    const r = await flags({
      'a.py': 'import click\nfrom b import mid\ntop = click.CommandCollection(sources=[mid])\n',
      'b.py': 'import click\nfrom c import base\nmid = click.CommandCollection(sources=[base])\n',
      'c.py': 'import click\n@click.group()\ndef base():\n    pass\n@base.command()\ndef hello():\n    pass\n',
    });
    expect(r.commands.filter((c) => c.target === 'a:top').map((c) => c.path.join(' '))).toEqual(['', 'hello']);
  });
});

describe('sub-command trees nested 5,000 deep (#33 sweep, new reproductions)', () => {
  // 1,000 groups: a module's commands past MAX_MODULE_COMMANDS are not read (#33 fresh sweep defect 7).
  it('click groups nested by add_command: listed to the depth limit, deeper ones unknown (main: over 120 s)', { timeout: 120_000 }, async () => {
    const n = MAX_MODULE_COMMANDS - 1;
    let s = 'import click\n\n';
    for (let i = 0; i <= n; i++) s += `@click.group()\ndef g${i}():\n    pass\n\n`;
    for (let i = 1; i <= n; i++) s += `g${i}.add_command(g${i - 1})\n`;
    let r: Awaited<ReturnType<typeof flags>> | undefined;
    const ms = await cpuMs(async () => {
      r = await flags({ 'addc.py': s });
    });
    expect(r!.diagnostics).toEqual([]);
    const top = r!.commands.filter((c) => c.target === `addc:g${n}`);
    expect(top).toHaveLength(MAX_SUBCOMMAND_DEPTH + 1);
    expect(top.at(-1)!.path).toHaveLength(MAX_SUBCOMMAND_DEPTH);
    expect(top.at(-1)!.dynamicSubcommands).toBe(true);
    expect(top.slice(0, -1).every((c) => !c.dynamicSubcommands)).toBe(true);
    // Each nested group is a program of its own too (an entry point may name it), within one
    // budget for all of them: 5,000 trees of 33 commands were 165,000 commands (+100 MB).
    expect(r!.commands.length).toBeLessThanOrEqual(MAX_SUBCOMMAND_DEPTH + 1 + MAX_ATTACHED_PROGRAM_COMMANDS + 5000);
    const near = r!.commands.filter((c) => c.target === 'addc:g3');
    expect(near.map((c) => c.path.length)).toEqual([0, 1, 2, 3]);
    expect(near.some((c) => c.dynamicSubcommands)).toBe(false);
    const past = r!.commands.filter((c) => c.target === `addc:g${n - 1}`);
    expect(past).toHaveLength(1);
    expect(past[0]!.dynamicSubcommands).toBe(true);
    expect(ms).toBeLessThan(30_000);
  });

  it('typer add_typer chains 5,000 long: no stack overflow, bounded (main: "Maximum call stack size exceeded")', { timeout: 120_000 }, async () => {
    let s = 'import typer\n\napp0 = typer.Typer()\n\n@app0.command()\ndef run(seed: int = 0):\n    pass\n\n';
    for (let i = 1; i <= 5000; i++) s += `app${i} = typer.Typer()\napp${i}.add_typer(app${i - 1}, name="s${i}")\n`;
    const r = await flags({ 'ty.py': s });
    const top = r.commands.filter((c) => c.target === 'ty:app5000');
    expect(top).toHaveLength(MAX_SUBCOMMAND_DEPTH + 1);
    expect(top.at(-1)!.dynamicSubcommands).toBe(true);
    // A short chain is read whole: the command at the bottom, with its flag.
    const short = await flags({ 'ty.py': s.slice(0, s.indexOf('app3 =')) });
    expect(short.commands.map((c) => c.path.join(' '))).toEqual(['', 's2', 's2 s1', 's2 s1 run']);
    expect(short.commands.at(-1)!.params.map((p) => p.name)).toEqual(['seed']);
  });

  it('typer: a sub-app without a name keeps its commands in place, in order', async () => {
    const r = await flags({
      'ty.py': 'import typer\napp = typer.Typer()\ninner = typer.Typer()\nlast = typer.Typer()\n@app.command()\ndef a():\n    pass\n@inner.command()\ndef b():\n    pass\n@last.command()\ndef c():\n    pass\napp.add_typer(inner)\napp.add_typer(last, name="z")\n',
    });
    expect(r.commands.filter((c) => c.target === 'ty:app').map((c) => c.path.join(' '))).toEqual(['', 'a', 'b', 'z', 'z c']);
  });

  it('argparse parents= chains 5,000 long: copies bounded, the last parser passes unknown flags on (main: 15 s, 715 MB)', { timeout: 120_000 }, async () => {
    let s = 'import argparse\n\np0 = argparse.ArgumentParser(add_help=False)\np0.add_argument("--seed")\n';
    for (let i = 1; i <= 5000; i++) s += `p${i} = argparse.ArgumentParser(parents=[p${i - 1}], add_help=False)\np${i}.add_argument("--a${i}")\n`;
    s += 'parser = argparse.ArgumentParser(prog="tool", parents=[p5000])\n';
    let r: Awaited<ReturnType<typeof flags>> | undefined;
    const ms = await cpuMs(async () => {
      r = await flags({ 'ap.py': s });
    });
    // The parsers of the chain are parents, not commands; the last one's flags are not all known.
    const tool = r!.commands.filter((c) => c.target === 'ap');
    expect(tool).toHaveLength(1);
    expect(tool[0]!.passesUnknownFlags).toBe(true);
    expect(ms).toBeLessThan(30_000);
    // A short chain is read whole and says nothing more.
    const small = await flags({ 'ap.py': 'import argparse\nbase = argparse.ArgumentParser(add_help=False)\nbase.add_argument("--seed")\nparser = argparse.ArgumentParser(prog="tool", parents=[base])\nparser.add_argument("--name")\n' });
    expect(small.commands.map((c) => [c.params.map((p) => p.name).sort(), c.passesUnknownFlags ?? false])).toEqual([[['name', 'seed'], false]]);
  });
});

describe('JSON Schema allOf/$ref chains (#33 sweep item 8)', () => {
  const chain = (n: number): string => {
    const defs: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) defs[`d${i}`] = { type: 'object', properties: { [`f${i}`]: { type: 'string' } }, allOf: [{ $ref: `#/definitions/d${i + 1}` }] };
    defs[`d${n}`] = { type: 'object', properties: { last: { type: 'integer' } } };
    return JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', definitions: defs, properties: { a: { $ref: '#/definitions/d0' } } });
  };

  it('reads a 5,000-link chain in linear work, to the depth limit, with one warning (main: 1,000 over 120 s, 5,000 a stack overflow)', { timeout: 120_000 }, async () => {
    let r: ReturnType<typeof extractJsonSchemas> | undefined;
    const ms = await cpuMs(() => {
      r = extractJsonSchemas([{ file: 'schemas/chain.json', text: chain(5000) }]);
    });
    // Within the limit from the bottom: every inherited field, owned by the type.
    const near = r!.classes.find((c) => c.name === `d${5000 - MAX_ALLOF_DEPTH}`)!;
    expect(near.bases).toEqual([`d${5001 - MAX_ALLOF_DEPTH}`]);
    expect(near.fields).toHaveLength(MAX_ALLOF_DEPTH + 1);
    expect(near.fields[0]!.name).toBe('last');
    expect(near.fields.at(-1)!.name).toBe(`f${5000 - MAX_ALLOF_DEPTH}`);
    expect(near.fields.every((f) => f.owner === near.name)).toBe(true);
    // Past it: the type keeps its own fields; the warning says the deeper ones are not read.
    expect(r!.classes.find((c) => c.name === 'd0')!.fields.map((f) => f.name)).toEqual(['f0']);
    expect(r!.diagnostics.map((d) => d.message)).toEqual([expect.stringMatching(new RegExp(`^schemas/chain\\.json:1:\\d+: definition \`d\\d+\` inherits through \`allOf\` more than ${MAX_ALLOF_DEPTH} levels deep; the fields of the deeper members are not read$`))]);
    expect(ms).toBeLessThan(15_000);
  });

  it('a short chain, a diamond and a cycle read as before: inherited fields first, a later key replaces in place, no warning', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      definitions: {
        base: { type: 'object', properties: { seed: { type: 'integer' }, name: { type: 'string' } } },
        left: { type: 'object', allOf: [{ $ref: '#/definitions/base' }], properties: { l: { type: 'string' } } },
        right: { type: 'object', allOf: [{ $ref: '#/definitions/base' }, { $ref: '#/definitions/loop' }], properties: { name: { type: 'number' } } },
        loop: { type: 'object', allOf: [{ $ref: '#/definitions/right' }], properties: { o: { type: 'string' } } },
        both: { type: 'object', allOf: [{ $ref: '#/definitions/left' }, { $ref: '#/definitions/right' }] , properties: { b: { type: 'boolean' } } },
      },
    };
    const r = extractJsonSchemas([{ file: 'schemas/s.json', text: JSON.stringify(schema) }]);
    const fields = (name: string) => r.classes.find((c) => c.name === name)!.fields.map((f) => `${f.name}:${f.type}`);
    expect(fields('both')).toEqual(['seed:number', 'name:number', 'l:string', 'o:string', 'b:boolean']);
    expect(fields('right')).toEqual(['seed:number', 'name:number', 'o:string']);
    expect(r.diagnostics).toEqual([]);
  });
});

describe('files read by a fixed name are regular files inside the project (#33 sweep item 7)', () => {
  const PYPROJECT = '[project]\nname = "tool"\nversion = "1.0.0"\n\n[project.scripts]\ntool = "tool.cli:main"\n';
  const base = (): string => tempProject({
    'pyproject.toml': PYPROJECT,
    'tool/__init__.py': '',
    'tool/cli.py': 'import argparse\n\ndef main():\n    p = argparse.ArgumentParser(prog="tool")\n    p.add_argument("--seed")\n    p.parse_args()\n',
    'README.md': '# tool\n\n```bash\ntool --seed 1\n```\n',
  });
  const run = (root: string) => {
    const started = performance.now();
    const r = spawnSync(process.execPath, [CLI_BIN, '--root', root, '--format', 'json', '--no-cache'], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
    return { ...r, seconds: (performance.now() - started) / 1000 };
  };
  const messages = (stdout: string): string[] => (JSON.parse(stdout) as { results: Array<{ message: string }> }).results.map((m) => m.message);

  it('readProjectFile refuses a FIFO, a link to /dev/zero and a link out; follows a link inside', () => {
    const root = base();
    spawnSync('mkfifo', [path.join(root, 'fifo.toml')]);
    symlinkSync('/dev/zero', path.join(root, 'zero.json'));
    symlinkSync('pyproject.toml', path.join(root, 'inside.toml'));
    const code = (rel: string): string => {
      try {
        readProjectFile(root, rel);
        return 'read';
      } catch (error) {
        return (error as ReadFileError).code;
      }
    };
    expect(code('fifo.toml')).toBe('ENOTREG');
    expect(code('zero.json')).toBe('EOUTSIDE');
    expect(code('missing.json')).toBe('ENOENT');
    expect(readProjectFile(root, 'inside.toml')).toBe(PYPROJECT);
    mkdirSync(path.join(root, 'big'));
    writeFileSync(path.join(root, 'big/package.json'), 'x'.repeat(2000));
    expect(() => readProjectFile(root, 'big/package.json', { maxBytes: 1000 })).toThrow(/over the/);
  });

  it('a FIFO pyproject.toml: a warning naming it, no hang (main: hung)', { timeout: 90_000 }, () => {
    const root = base();
    writeFileSync(path.join(root, 'package.json'), '{"name": "tool", "version": "1.0.0"}');
    const fifo = path.join(root, 'pyproject.toml');
    spawnSync('rm', [fifo]);
    spawnSync('mkfifo', [fifo]);
    const r = run(root);
    expect(r.error, 'a timeout is a hang').toBeUndefined();
    expect(r.stderr).not.toMatch(/\n\s+at /);
    // The only entry point was in it: no command found (exit 2); the warning says why.
    expect(r.status).toBe(2);
    expect(r.stdout + r.stderr).toContain('Cannot read pyproject.toml: ENOTREG (not a regular file (a FIFO))');
    // The note does not claim there is no [project.scripts]: the file was not read (s24 sweep note).
    expect(r.stderr).toContain('no "commands" in the config; a packaging file was not read (pyproject.toml: see the warnings above)), so nothing was checked');
  });

  it('package.json linked to /dev/zero: refused with a warning, the run checks the rest (main: GBs of memory)', { timeout: 90_000 }, () => {
    const root = base();
    symlinkSync('/dev/zero', path.join(root, 'package.json'));
    const r = run(root);
    expect(r.error).toBeUndefined();
    expect(r.status, r.stderr).toBe(0);
    expect(messages(r.stdout)).toContain('Cannot read package.json: EOUTSIDE (a symbolic link to a file outside the project); it is not read');
  });
});

describe('defaults nested thousands deep are not comparable, never a crash (fresh sweep D3)', () => {
  const deep = (open: string, close: string, n: number): string => open.repeat(n) + close.repeat(n);
  const code = (text: string) => ({ kind: 'expression' as const, text });

  it('compareDefault answers unknown for a code or documented default nested past the limit (main: RangeError)', () => {
    for (const text of [deep('[', ']', 3000), deep('f(', ')', 3000), deep('(', ')', 3000), `${'{1: '.repeat(3000)}1${'}'.repeat(3000)}`, deep('(', ',)', 3000), Array(5000).fill('2').join(' ** '), `${'-'.repeat(5000)}1`]) {
      expect(compareDefault(code(text), '`0`'), text.slice(0, 20)).toBe('unknown');
    }
    // The documented side as well.
    expect(compareDefault(code('[]'), `\`${deep('[', ']', 3000)}\``)).toBe('unknown');
    expect(compareDefault(code('0'), `\`${'"\''.repeat(2000)}0${'\'"'.repeat(2000)}\``)).toBe('unknown');
    // Shallow nesting still compares by meaning.
    expect(compareDefault(code(deep('[', ']', 50)), `\`${deep('[', ']', 50)}\``)).toBe('same');
    expect(compareDefault(code('[[1]]'), '`[[2]]`')).toBe('different');
  });

  const run = (root: string) => spawnSync(process.execPath, [CLI_BIN, '--root', root, '--format', 'json', '--no-cache'], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
  const REFERENCE = (cmd: string, flag: string) => `# Reference\n\n### \`${cmd}\`\n\n| Option | Default | Description |\n| --- | --- | --- |\n| \`${flag}\` | \`0\` | Seed. |\n`;

  it('argparse defaults 3,000 deep (list, dict() calls) and a commander default 1,500 deep (3,000: the TS parser gives its own warning): exit 0, no finding (main: internal error, exit 2)', { timeout: 120_000 }, () => {
    const py = tempProject({
      'pyproject.toml': '[project]\nname = "tool"\nversion = "1.0.0"\n\n[project.scripts]\ntool = "tool.cli:main"\n',
      'tool/__init__.py': '',
      'tool/cli.py': `import argparse\n\ndef main():\n    p = argparse.ArgumentParser(prog="tool")\n    p.add_argument("--seed", default=${deep('[', ']', 3000)})\n    p.add_argument("--depth", default=${deep('dict(', ')', 3000)})\n    p.parse_args()\n`,
      'docs/reference.md': `${REFERENCE('tool', '--seed')}| \`--depth\` | \`0\` | Depth. |\n`,
    });
    const ts = tempProject({
      'package.json': '{"name": "tsapp", "type": "module", "bin": {"tsapp": "dist/cli.js"}, "dependencies": {"commander": "^12.0.0"}}',
      'src/cli.ts': `import { Command } from 'commander';\nconst program = new Command('tsapp');\nprogram.option('--x <v>', 'x', ${deep('[', ']', 1500)});\nprogram.parse();\n`,
      'docs/reference.md': REFERENCE('tsapp', '--x'),
    });
    for (const root of [py, ts]) {
      const r = run(root);
      expect(r.stderr).not.toMatch(/internal error|Maximum call stack/);
      expect(r.status, r.stderr).toBe(0);
      expect((JSON.parse(r.stdout) as { results: unknown[] }).results).toEqual([]);
    }
  });
});

describe('setup.py values nested thousands deep (fresh sweep D6b)', () => {
  it('entry_points with a key nested 5,000 deep: console_scripts still read, no stack overflow (main: "Maximum call stack size exceeded" at 3,000)', async () => {
    const deep = `${'{"a": '.repeat(5000)}1${'}'.repeat(5000)}`;
    const text = `from setuptools import setup\nsetup(name="tool", entry_points={"console_scripts": ["tool=tool.cli:main"], "x": ${deep}}, extras=${'['.repeat(5000)}${']'.repeat(5000)})\n`;
    const r = await readSetupPyEntryPoints([{ file: 'setup.py', text }]);
    expect(r.entryPoints.map((e) => `${e.name}=${e.target}`)).toEqual(['tool=tool.cli:main']);
    // A console_scripts value nested 5,000 deep is a form the reader does not cover: skipped, not a crash.
    const nested = `from setuptools import setup\nsetup(name="tool", entry_points={"console_scripts": ${'['.repeat(5000)}"tool=tool.cli:main"${']'.repeat(5000)}})\n`;
    expect((await readSetupPyEntryPoints([{ file: 'setup.py', text: nested }])).entryPoints).toEqual([]);
  });

  it('setup() calls are still found in source order, in a function and under if __name__, not in a class', async () => {
    const text = [
      'from setuptools import setup',
      'class Fake:',
      '    def setup(self):',
      '        setup(entry_points={"console_scripts": ["fake=x:y"]})',
      'def build():',
      '    setup(entry_points={"console_scripts": ["first=tool.a:main"]})',
      'if __name__ == "__main__":',
      '    setup(entry_points={"console_scripts": ["second=tool.b:main"]})',
      '',
    ].join('\n');
    const r = await readSetupPyEntryPoints([{ file: 'setup.py', text }]);
    expect(r.entryPoints.map((e) => e.name)).toEqual(['first', 'second']);
  });
});
