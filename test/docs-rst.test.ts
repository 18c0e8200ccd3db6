/** Tests the reStructuredText reader (src/docs/rst.ts) and parseDoc on `.rst` pages: the mdast it builds, positions, and what the rules read from it. */

import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Code, Heading, List, Nodes, Root, Table } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { afterAll, describe, expect, test } from 'vitest';
import { fixProject, ruleIds } from '../src/api.js';
import { loadConfig } from '../src/config/load.js';
import { looksLikeCommandLines } from '../src/docs/code-blocks.js';
import { parseDoc } from '../src/docs/parse.js';
import { readReferenceTable } from '../src/docs/reference-table.js';
import { rstToMdast } from '../src/docs/rst.js';
import { cellLocation } from '../src/docs/position.js';

const rst = (...lines: string[]): Root => rstToMdast(lines.join('\n'));
const at = (n: { position?: { start: { line: number; column: number } } }): string => `${n.position!.start.line}:${n.position!.start.column}`;
function all<T extends Nodes['type']>(tree: Nodes, type: T): Array<Extract<Nodes, { type: T }>> {
  const out: Array<Extract<Nodes, { type: T }>> = [];
  const walk = (n: Nodes): void => {
    if (n.type === type) out.push(n as Extract<Nodes, { type: T }>);
    if ('children' in n) for (const c of n.children) walk(c as Nodes);
  };
  walk(tree);
  return out;
}

describe('section titles', () => {
  test('underlined and over-and-underlined titles; depth by the order styles are met; labels become anchors', () => {
    const tree = rst('.. _top:', '', '=====', 'Tool', '=====', '', 'CLI', '===', '', 'Serve', '-----', '', 'Other', '=====', '', 'Fetch', '-----');
    const headings = all(tree, 'heading');
    expect(headings.map((h) => [h.depth, toString(h), at(h)])).toEqual([
      [1, 'Tool', '4:1'], [2, 'CLI', '7:1'], [3, 'Serve', '10:1'], [2, 'Other', '13:1'], [3, 'Fetch', '16:1'],
    ]);
    const { doc } = parseDoc('docs/cli.rst', ['.. _top:', '', 'Tool', '====', '', 'Text.'].join('\n'));
    expect(doc.kind).toBe('rst');
    expect(doc.headings).toMatchObject([{ depth: 1, text: 'Tool', slug: 'tool', anchors: ['top'], location: { line: 3, column: 1 } }]);
  });

  test('a line of punctuation under a paragraph line is a title only after a blank line; a lone one is a transition', () => {
    const tree = rst('Text here', 'more text', '-----', '', '----------', '', 'Para.');
    expect(all(tree, 'heading')).toEqual([]);
    expect(all(tree, 'paragraph').map((p) => toString(p))).toEqual(['Text here\nmore text\n-----', 'Para.']);
  });
});

describe('inline markup', () => {
  test('inline literals, strong, links to URLs and to named targets, roles', () => {
    const tree = rst('Run ``tool --port 80`` **now**, see `docs <https://x.dev/cli>`_, site_ and :option:`--host` or :ref:`cli-ref`.', '', '.. _site: https://x.dev');
    const para = tree.children[0]!;
    expect(all(para, 'inlineCode').map((c) => [c.value, at(c)])).toEqual([['tool --port 80', '1:5'], ['--host', '1:84'], ['cli-ref', '1:101']]);
    expect(all(para, 'strong').map((s) => toString(s))).toEqual(['now']);
    expect(all(para, 'link').map((l) => [l.url, toString(l), at(l)])).toEqual([['https://x.dev/cli', 'docs', '1:37'], ['https://x.dev', 'site', '1:66']]);
    const { doc } = parseDoc('docs/a.rst', 'See :doc:`usage` and :ref:`the options <opts>`.\n');
    expect(doc.links.map((l) => [l.url, l.role, l.location.line, l.location.column])).toEqual([['usage', 'doc', 1, 10], ['opts', 'ref', 1, 27]]);
  });

  test('a start string with no end string is text, and scanning stays linear on hostile input', () => {
    expect(toString(rst('a ``b and *c and `d'))).toBe('a ``b and *c and `d');
    const hostile = '``a '.repeat(50_000) + ' *b '.repeat(50_000) + ' `c '.repeat(50_000);
    const start = Date.now();
    rstToMdast(hostile);
    expect(Date.now() - start).toBeLessThan(3000);
  });
});

describe('literal and code blocks', () => {
  test('the `Paragraph::`, `Paragraph ::` and lone `::` forms; the node starts at its content', () => {
    const tree = rst('Run this::', '', '    tool serve --port 80', '', 'Help ::', '', '  usage: tool', '', '::', '', '    $ tool -v', '');
    expect(tree.children.map((n) => [n.type, n.type === 'code' ? n.value : toString(n), at(n)])).toEqual([
      ['paragraph', 'Run this:', '1:1'],
      ['code', 'tool serve --port 80', '3:5'],
      ['paragraph', 'Help', '5:1'],
      ['code', 'usage: tool', '7:3'],
      ['code', '$ tool -v', '11:5'],
    ]);
    expect((tree.children[1] as Code).data).toEqual({ rst: 'literal' });
  });

  test('code-block, code, sourcecode and prompt directives give the language; highlight sets it for later :: blocks', () => {
    const tree = rst(
      '.. code-block:: sh', '   :caption: x', '', '   tool a', '',
      '.. code:: bash', '', '   tool b', '',
      '.. sourcecode:: python', '', '   import tool', '',
      '.. prompt:: bash $', '', '   tool c', '',
      '.. highlight:: console', '', 'Then::', '', '   $ tool d',
    );
    expect(all(tree, 'code').map((c) => [c.lang, c.value, at(c)])).toEqual([
      ['sh', 'tool a', '4:4'], ['bash', 'tool b', '8:4'], ['python', 'import tool', '12:4'], ['bash', 'tool c', '16:4'], ['console', '$ tool d', '22:4'],
    ]);
  });

  test('parseDoc reads examples at exact columns and pasted help in a :: block; Python literal blocks are no examples', () => {
    const text = [
      'Usage', '=====', '',
      'Start it::', '', '    tool serve --port 80 \\', '        --host 0.0.0.0', '',
      'Help::', '', '    Usage: tool serve [OPTIONS]', '', '    Options:', '      -p, --port INTEGER  The port.  [default: 80]', '      --help              Show this message and exit.', '',
      'Python::', '', '    from tool import serve', '    serve(port=1)', '',
      '.. code-block:: none', '', '   tool --version', '',
    ].join('\n');
    const { doc, diagnostics } = parseDoc('README.rst', text);
    expect(diagnostics).toEqual([]);
    expect(doc.invocations.map((i) => [i.command, `${i.location.line}:${i.location.column}`, ...i.args.map((a) => `${a.text}@${a.location.line}:${a.location.column}`)])).toEqual([
      ['tool', '6:5', 'serve@6:10', '--port@6:16', '80@6:23', '--host@7:9', '0.0.0.0@7:16'],
      ['tool', '24:4', '--version@24:9'],
    ]);
    expect(doc.helpBlocks).toHaveLength(1);
    expect(doc.helpBlocks![0]!.usage).toEqual(['tool', 'serve']);
    expect(doc.helpBlocks![0]!.rows.map((r) => [r.names, r.default, r.location.line, r.location.column])).toEqual([[['port', 'p'], '80', 14, 7]]);
  });
});

describe('tables', () => {
  const referenceOf = (text: string) => {
    const { doc } = parseDoc('docs/cli.rst', text);
    const table = doc.blocks[0]!.tables[0]!;
    return { table, rows: readReferenceTable(table)!.map((r) => [r.names.join('|'), r.default, r.location.line, r.location.column]) };
  };

  test('a grid table with a header, cells at their columns', () => {
    const { table, rows } = referenceOf([
      'CLI', '===', '',
      '+--------------+---------+', '| Option       | Default |', '+==============+=========+',
      '| ``--port``   | ``80``  |', '| (multi-line) |         |', '+--------------+---------+', '| ``--host``   | x       |', '+--------------+---------+',
    ].join('\n'));
    expect(table.header).toEqual(['Option', 'Default']);
    expect(cellLocation(table.location.file, table.rows[0]!, 1)).toMatchObject({ line: 7, column: 18 });
    expect(rows).toEqual([['port', '80', 7, 1], ['host', 'x', 10, 1]]);
  });

  test('a simple table with continuation lines, a list-table and a csv-table', () => {
    expect(referenceOf(['CLI', '===', '', '========  =======', 'Option    Default', '========  =======', '``--a``   1', '``--b``   2', '          (two)', '========  =======', ''].join('\n')).rows)
      .toEqual([['a', '1', 7, 1], ['b', '2 (two)', 8, 1]]);
    expect(referenceOf(['CLI', '===', '', '.. list-table::', '   :header-rows: 1', '', '   * - Option', '     - Default', '   * - ``--a``', '     - ``1``', ''].join('\n')).rows)
      .toEqual([['a', '1', 9, 4]]);
    const csv = referenceOf(['CLI', '===', '', '.. csv-table::', '   :header: "Option", "Default"', '', '   ``--a``, 1', '   "``--b``", "x, y"', ''].join('\n'));
    expect(csv.table.header).toEqual(['Option', 'Default']);
    expect(csv.rows).toEqual([['a', '1', 7, 4], ['b', 'x, y', 8, 4]]);
  });

  test('a table without header rows is no reference table; a table wider than the limit is text', () => {
    const tree = rst('========  =======', '``--a``   1', '========  =======');
    const table = all(tree, 'table')[0] as Table;
    expect(table.children[0]!.children.map((c) => toString(c))).toEqual(['', '']);
    const wide = `+${'-+'.repeat(1500)}\n|${' |'.repeat(1500)}\n+${'-+'.repeat(1500)}\n`;
    expect(all(rstToMdast(wide), 'table')).toEqual([]);
  });
});

describe('options', () => {
  test('.. program:: opens a section named in code; consecutive .. option:: directives are one reference list', () => {
    const text = [
      'Reference', '=========', '',
      '.. program:: tool serve', '',
      '.. option:: -p <port>, --port <port>', '', '   The port. Default: ``80``.', '',
      '.. option:: --host', '', '   The host.', '',
    ].join('\n');
    const tree = rstToMdast(text);
    expect(all(tree, 'heading').map((h: Heading) => [h.depth, toString(h), at(h)])).toEqual([[1, 'Reference', '1:1'], [2, 'tool serve', '4:14']]);
    expect(all(tree, 'list').map((l: List) => l.children.length)).toEqual([2]);
    const { doc } = parseDoc('docs/serve.rst', text);
    const block = doc.blocks.find((b) => b.heading.codes.includes('tool serve'))!;
    expect(block.listRows!.map((r) => [r.names, r.default, r.description, r.location.line])).toEqual([
      [['p', 'port'], '80', 'The port. Default: 80.', 6],
      [['host'], undefined, 'The host.', 10],
    ]);
  });

  test('Sphinx signatures: lower-case placeholders (-b buildername), several long options (-h, --help, --version), short forms in parentheses', () => {
    const { doc } = parseDoc('docs/man.rst', [
      'Options', '=======', '', '.. program:: sphinx-build', '',
      '.. option:: -b buildername, --builder buildername', '', '   Selects a builder.', '',
      '.. option:: -D setting=value', '', '   Override a setting.', '',
      '.. option:: -j N, --jobs N', '', '   Jobs.', '',
      '.. option:: -h, --help, --version', '', '   Help or version.', '',
      '.. option:: --use-make-mode (-m), --no-use-make-mode (-M)', '', '   Make mode.', '',
    ].join('\n'));
    expect(doc.blocks[1]!.listRows!.map((r) => [r.names, r.rawName, r.description, `${r.location.line}:${r.location.column}`])).toEqual([
      [['b', 'builder'], '-b <buildername>, --builder <buildername>', 'Selects a builder.', '6:1'],
      [['D'], '-D <setting=value>', 'Override a setting.', '10:1'],
      [['j', 'jobs'], '-j N, --jobs N', 'Jobs.', '14:1'],
      [['h', 'help'], '-h, --help', 'Help or version.', '18:1'],
      [['version'], '--version', 'Help or version.', '18:25'],
      [['use-make-mode', 'm'], '--use-make-mode, -m', 'Make mode.', '22:1'],
      [['no-use-make-mode', 'M'], '--no-use-make-mode, -M', 'Make mode.', '22:35'],
    ]);
  });

  test('a docutils option list and a definition list of code terms are reference lists', () => {
    const { doc } = parseDoc('docs/o.rst', [
      'Options', '=======', '',
      '-p PORT, --port=PORT  The port.', '--verbose             Talk more.', '',
      '``--color``', '   Colour the output.', '``--width``', '   Columns.', '',
    ].join('\n'));
    expect(doc.blocks[0]!.listRows!.map((r) => [r.names, r.description, `${r.location.line}:${r.location.column}`])).toEqual([
      [['p', 'port'], 'The port.', '4:1'], [['verbose'], 'Talk more.', '5:1'], [['color'], 'Colour the output.', '7:1'], [['width'], 'Columns.', '9:1'],
    ]);
  });
});

describe('bounded on hostile input', () => {
  test('deep indentation, long adornments and many directives end quickly', () => {
    const deep = Array.from({ length: 1400 }, (_, i) => `${' '.repeat(i)}- x`).join('\n');
    const directives = '.. note::\n\n'.repeat(20_000);
    const start = Date.now();
    rstToMdast(deep);
    rstToMdast(directives);
    rstToMdast(`${'='.repeat(200_000)}\nT\n${'='.repeat(200_000)}\n`);
    rstToMdast('+--+\n|'.repeat(50_000));
    expect(Date.now() - start).toBeLessThan(5000);
  });
});

test('looksLikeCommandLines: prompts, commands with arguments; not code, data, help or prose output', () => {
  expect(looksLikeCommandLines('tool serve --port 80')).toBe(true);
  expect(looksLikeCommandLines('# start\nPORT=1 tool serve \\\n  --debug')).toBe(true);
  expect(looksLikeCommandLines('$ tool -v\ntool 1.0')).toBe(true);
  expect(looksLikeCommandLines('tool')).toBe(false);
  expect(looksLikeCommandLines('import tool\ntool.run()')).toBe(false);
  expect(looksLikeCommandLines('def main():\n    pass')).toBe(false);
  expect(looksLikeCommandLines('port: 80')).toBe(false);
  expect(looksLikeCommandLines('Usage: tool [OPTIONS]')).toBe(false);
  expect(looksLikeCommandLines('  --port INTEGER  The port.')).toBe(false);
});

describe('--fix on a reStructuredText page', () => {
  const temps: string[] = [];
  afterAll(() => {
    for (const t of temps) rmSync(t, { recursive: true, force: true });
  });
  test('offers no fix on .rst pages (none counted as fixable), and leaves every .rst file byte for byte', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-rst-fix-'));
    temps.push(dir);
    cpSync(path.resolve(import.meta.dirname, '../fixtures/frameworks/click-rst-docs/invalid'), dir, { recursive: true });
    rmSync(path.join(dir, 'expected.json'));
    const before = new Map(['README.rst', 'docs/cli.rst'].map((f) => [f, readFileSync(path.join(dir, f))]));
    const result = await fixProject({ root: dir, config: loadConfig(dir, undefined, ruleIds).config });
    for (const [f, bytes] of before) expect(readFileSync(path.join(dir, f)).equals(bytes)).toBe(true);
    // docs/cli.rst has findings a Markdown page would get fixes for (a missing row, a wrong
    // default): on a .rst page they carry none, so the run counted them as fixable and --fix
    // could only refuse the page (s24 sweep note).
    expect(result.problems).toEqual([]);
    expect(result.files).toEqual([]);
    expect(result.result.messages.filter((m) => m.file === 'docs/cli.rst').length).toBeGreaterThan(0);
    expect(result.result.messages.filter((m) => m.fix)).toEqual([]);
  });
});
