/** Long runs of full-line comments are blanked before tree-sitter parses Python (s22 sweep D2: its scanner is quadratic in them). */
import { describe, expect, it } from 'vitest';
import { COMMENT_RUN_KEPT_LINES, COMMENT_RUN_MIN_LINES, flattenCommentRuns } from '../src/extract/python/parser.js';
import { extractPython } from '../src/extract/python/index.js';

const comments = (n: number, indent = ''): string => Array.from({ length: n }, (_, i) => `${indent}# line ${i} of a commented-out block\n`).join('');

describe('flattenCommentRuns', () => {
  it('leaves short runs alone', () => {
    const text = `import os\n${comments(COMMENT_RUN_MIN_LINES - 1)}x = 1\n`;
    expect(flattenCommentRuns(text)).toBe(text);
  });

  it('blanks a long run but its last lines, keeping length, lines and code', () => {
    const text = `import os\n${comments(500)}\n${comments(100, '    ')}x = 1  # kept\n`;
    const flat = flattenCommentRuns(text);
    expect(flat.length).toBe(text.length);
    expect(flat.split('\n').length).toBe(text.split('\n').length);
    const lines = flat.split('\n');
    // 600 comment lines (a blank line and indentation do not end the run): all but the last 16 blanked.
    expect(lines.filter((l) => l.includes('#')).length).toBe(COMMENT_RUN_KEPT_LINES + 1);
    expect(lines.at(-2)).toBe('x = 1  # kept');
    expect(lines[1]).toMatch(/^ +$/);
  });

  it('never touches `#` lines inside string literals, triple-quoted, prefixed or escaped', () => {
    const inString = Array.from({ length: 200 }, () => '# usage line\n').join('');
    for (const open of ['"""', "'''", 'r"""', 'f"""']) {
      const close = open.slice(-3);
      const text = `HELP = ${open}\n${inString}${close}\nx = "a\\"b"  # c\n`;
      expect(flattenCommentRuns(text)).toBe(text);
    }
  });

  it('a config class after a long commented-out block reads as without it, at its own lines', async () => {
    const body = 'class Config(BaseModel):\n    # How many workers.\n    workers: int = 4\n    name: str = "run"  # trailing\n';
    const plain = await extractPython([{ file: 'app/config.py', text: `from pydantic import BaseModel\n\n${body}` }]);
    const text = `from pydantic import BaseModel\n\n${comments(3000)}${body}`;
    const flat = await extractPython([{ file: 'app/config.py', text }]);
    expect(flat.diagnostics).toEqual([]);
    const shape = (r: typeof plain) => r.classes.map((c) => ({ name: c.name, fields: c.fields.map((f) => ({ ...f, location: undefined })) }));
    expect(shape(flat)).toEqual(shape(plain));
    expect(flat.classes[0]!.fields[0]!.location.line).toBe(3000 + 5);
  });
});
