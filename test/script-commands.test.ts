/**
 * Python scripts run as `python path/to/script.py` (commands found by their `__main__` block):
 * a file name names a script only when one script has it, and a script is a repository helper
 * whose examples are checked but which needs no reference section of its own.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { lint, ruleIds } from '../src/api.js';
import { removeTempDirs, tempProject } from './helpers.js';

afterAll(removeTempDirs);

const script = (flag: string) =>
  ['import argparse', '', '', 'def main() -> None:', '    parser = argparse.ArgumentParser()', `    parser.add_argument("${flag}", help="Where to write.")`, '    parser.parse_args()', '', '', 'if __name__ == "__main__":', '    main()', ''].join('\n');

async function findings(files: Record<string, string>) {
  const root = tempProject(files);
  const result = await lint({ root, config: loadConfig(root, undefined, ruleIds).config });
  return result.messages.map((m) => ({ file: m.file, ruleId: m.ruleId, name: m.data?.name, command: m.data?.command }));
}

describe('script commands', () => {
  it('a file name shared by two scripts names neither; the path names each', async () => {
    const messages = await findings({
      'bench/aime/prepare.py': script('--dest'),
      'bench/gpqa/prepare.py': script('--output-dir'),
      'bench/aime/README.md': '# AIME\n\n```bash\ncd bench/aime\npython prepare.py --output-dir x\n```\n',
      'bench/gpqa/README.md': '# GPQA\n\n```bash\npython bench/gpqa/prepare.py --dest x\n```\n',
    });
    // `python prepare.py` in bench/aime could be either script: not attributed, so no false
    // "unknown --output-dir" against bench/aime/prepare.py's sibling.
    expect(messages.filter((m) => m.file === 'bench/aime/README.md')).toEqual([]);
    // The full path is unambiguous: `--dest` is not a flag of bench/gpqa/prepare.py (nor a
    // prefix of one, which argparse would accept).
    expect(messages.filter((m) => m.file === 'bench/gpqa/README.md').map((m) => [m.ruleId, m.name, m.command])).toEqual([
      ['example-param-unknown', 'dest', 'bench/gpqa/prepare.py'],
    ]);
  });

  it('a script run in examples is not reported as an undocumented command', async () => {
    const messages = await findings({
      // A documented console script, so the rule has a reference to compare with.
      'pyproject.toml': '[project]\nname = "pkg"\n\n[project.scripts]\ntool = "pkg.cli:main"\n',
      'pkg/__init__.py': '',
      'pkg/cli.py': script('--out').replace('if __name__', 'if False and __name__'),
      'docs/cli.md': '# CLI\n\n## `tool`\n\n| Option | Description |\n| --- | --- |\n| `--out` | Where to write. |\n',
      'tools/export.py': script('--out'),
      'README.md': '# Tools\n\n```bash\ntool --out x\npython tools/export.py --out x\n```\n\nSee the [CLI reference](docs/cli.md).\n',
    });
    expect(messages.filter((m) => m.ruleId === 'command-undocumented')).toEqual([]);
    expect(messages).toEqual([]);
  });
});
