/** argparse `ArgumentParser(prefix_chars=…)`: examples are read with the parser's prefix characters (s47 sweep J5). */
import { afterAll, describe, expect, it } from 'vitest';
import { lintTwin, removeTempDirs, tempProject } from './helpers.js';

const PYPROJECT = '[project]\nname = "tool"\nversion = "0.1.0"\n\n[project.scripts]\ntool = "tool.cli:main"\n';
const REFERENCE = '# Reference\n\n### `tool`\n\n| Flag | Default | Description |\n| --- | --- | --- |\n| `+seed` | `0` | Random seed. |\n| `++name` | `"run"` | Name of the run. |\n';
const cli = (prefixChars: string, seed: string, name: string): string =>
  `import argparse\n\n\ndef main() -> None:\n    parser = argparse.ArgumentParser(prog="tool", prefix_chars="${prefixChars}")\n    parser.add_argument("${seed}", type=int, default=0, help="Random seed.")\n    parser.add_argument("${name}", default="run", help="Name of the run.")\n    parser.parse_args()\n`;

describe('argparse prefix_chars (s47 sweep J5)', () => {
  afterAll(removeTempDirs);

  it('reads `tool +seed 1 ++nme y` as passing `seed` and the typo `nme` (it passed nothing and exit 0), the suggestion spelled with `++`', async () => {
    const root = tempProject({
      'pyproject.toml': PYPROJECT,
      'tool/__init__.py': '',
      'tool/cli.py': cli('+', '+seed', '++name'),
      'README.md': '# tool\n\n```bash\ntool +seed 1 ++nme y\ntool +seed=2 ++name=z\n```\n\nSee the [reference](docs/reference.md#tool).\n',
      'docs/reference.md': REFERENCE,
    });
    const { result, messages } = await lintTwin(root);
    expect(messages).toEqual([
      expect.objectContaining({ file: 'README.md', line: 4, column: 14, ruleId: 'example-param-unknown' }),
    ]);
    const unknown = result.messages[0]!;
    expect(unknown.data).toMatchObject({ name: 'nme', suggestion: 'name' });
    expect(unknown.suggestion).toBe('++name');
  });

  it('with `prefix_chars="-+"` both spellings pass their flags; a positional word and a lone `+` stay arguments', async () => {
    const root = tempProject({
      'pyproject.toml': PYPROJECT,
      'tool/__init__.py': '',
      'tool/cli.py': cli('-+', '+seed', '--name').replace('    parser.parse_args()', '    parser.add_argument("path")\n    parser.parse_args()'),
      'README.md': '# tool\n\n```bash\ntool +seed 1 --name x data.txt\ntool + ++nmae q data.txt\n```\n\nSee the [reference](docs/reference.md#tool).\n',
      'docs/reference.md': REFERENCE.replace('`++name`', '`--name`').replace('| `--name` |', '| `path` | | Input. |\n| `--name` |'),
    });
    const { messages } = await lintTwin(root);
    expect(messages.map((m) => [m.file, m.line, m.column, m.ruleId])).toEqual([['README.md', 5, 8, 'example-param-unknown']]);
  });
});
