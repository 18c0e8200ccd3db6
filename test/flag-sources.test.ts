/** The prefilter choosing which Python files the CLI flag pass reads (src/extract/python/flag-sources.ts). */
import { describe, expect, it } from 'vitest';
import { flagSourceFilter } from '../src/extract/python/flag-sources.js';

const src = (file: string, text: string) => ({ file, text });

describe('flag source filter', () => {
  it('keeps files naming a framework, and the modules a jsonargparse or cyclopts file imports', () => {
    const sources = [
      src('pkg/__main__.py', 'from jsonargparse import CLI\nfrom pkg.finetune.lora import setup as lora_fn\nfrom .chat import (\n    main,\n)\nimport pkg.serve\n'),
      src('pkg/finetune/lora.py', 'def setup(checkpoint_dir: str, lr: float = 0.1): pass\n'),
      src('pkg/chat.py', 'def main(): pass\n'),
      src('pkg/serve.py', 'def run_server(port: int = 8000): pass\n'),
      src('pkg/unrelated.py', 'def helper(): pass\n'),
      src('tools/cli.py', 'import argparse\n'),
    ];
    const keep = flagSourceFilter(sources, []);
    expect(sources.filter(keep).map((s) => s.file)).toEqual(['pkg/__main__.py', 'pkg/finetune/lora.py', 'pkg/chat.py', 'pkg/serve.py', 'tools/cli.py']);
  });

  it('does not follow imports of files using only argparse, click or typer', () => {
    const sources = [src('a.py', 'import click\nfrom b import helper\n'), src('b.py', 'def helper(): pass\n')];
    expect(sources.filter(flagSourceFilter(sources, [])).map((s) => s.file)).toEqual(['a.py']);
  });

  it('keeps the modules entry points name, whose main() calls a parser builder without naming a framework', () => {
    const sources = [
      src('pkg/main.py', 'from pkg.cli import parse_arguments\ndef main():\n    args = parse_arguments()\n'),
      src('pkg/cli.py', 'import argparse\n'),
      src('pkg/other.py', 'def helper(): pass\n'),
    ];
    expect(sources.filter(flagSourceFilter(sources, [])).map((s) => s.file)).toEqual(['pkg/cli.py']);
    expect(sources.filter(flagSourceFilter(sources, [], undefined, ['pkg.main'])).map((s) => s.file)).toEqual(['pkg/main.py', 'pkg/cli.py']);
  });
});
