/**
 * An open Python buffer is read as the same bytes on disk are (s40 sweep D1): CPython ends a line
 * at a lone CR, and `decodeText` reads a Python file on disk that way (s39 sweep D1), but the
 * language server's buffers (the lint's overlay) were read as they came, so `# helper\r` swallowed
 * the next line: no diagnostics in the editor where the CLI found two.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lint, ruleIds } from '../src/api.js';
import { loadConfig } from '../src/config/load.js';
import { withPythonLineEnds } from '../src/shared/read-file.js';

const root = mkdtempSync(path.join(tmpdir(), 'docdrift-overlay-cr-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const write = (file: string, text: string): void => {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
};

const cli = ['import argparse', '', 'def main():', '    parser = argparse.ArgumentParser(prog="tool")', '    parser.add_argument("--seed", type=int, default=7, help="Seed.")', '    parser.parse_args()', ''].join('\n');
write('pyproject.toml', '[project]\nname = "tool"\nversion = "1.0.0"\n\n[project.scripts]\ntool = "tool.cli:main"\n');
write('tool/__init__.py', '');
write('README.md', '# tool\n\n```bash\ntool --sed 1\n```\n\n## `tool`\n\n| Option | Default | Description |\n| --- | --- | --- |\n| `--seed` | `0` | Seed. |\n');

const summary = (messages: ReadonlyArray<{ file?: string; line?: number; ruleId?: string | null; message: string }>): string[] => messages.map((m) => `${m.file}:${m.line} ${m.ruleId} ${m.message}`);

describe('an open Python buffer with lone CRs', () => {
  for (const [name, text] of [
    ['a first line ending in a lone CR', `# helper module\r${cli}`],
    ['every line ending in a lone CR', cli.replace(/\n/g, '\r')],
  ] as const) {
    it(`${name}: the same findings as the same bytes on disk`, async () => {
      write('tool/cli.py', text);
      const { config } = loadConfig(root, undefined, [...ruleIds]);
      const disk = summary((await lint({ root, config })).messages);
      // The file on disk says something else: only the buffer can give the findings.
      write('tool/cli.py', 'import argparse\n');
      const buffer = summary((await lint({ root, config, overlay: new Map([['tool/cli.py', text]]) })).messages);
      expect(disk.some((m) => m.includes('reference-default-mismatch') && m.includes('tool/cli.py:'))).toBe(true);
      expect(disk.some((m) => m.includes('example-param-unknown'))).toBe(true);
      expect(buffer).toEqual(disk);
    });
  }

  it('withPythonLineEnds changes only Python texts, and keeps the map when none has a CR', () => {
    const plain = new Map([['a.py', 'x = 1\n'], ['b.md', 'a\rb']]);
    expect(withPythonLineEnds(plain)).toBe(plain);
    const mixed = withPythonLineEnds(new Map([['a.py', 'x\ry\r\nz'], ['b.md', 'a\rb'], ['c.pyi', '\r']]));
    expect([...mixed]).toEqual([['a.py', 'x\ny\r\nz'], ['b.md', 'a\rb'], ['c.pyi', '\n']]);
  });
});
