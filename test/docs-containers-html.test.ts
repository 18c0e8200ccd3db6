/** Tests the doc-engine directive pass (MyST, colon fences), MyST list-tables and the HTML table/pre reader on real-shaped snippets. */

import { describe, expect, test } from 'vitest';
import { decodeEntities, offsetMap, readHtmlPre, readHtmlTable } from '../src/docs/html-blocks.js';
import { openDirectiveContainers } from '../src/docs/myst.js';
import { parseDoc } from '../src/docs/parse.js';
import { cellCodeLocation } from '../src/docs/position.js';

describe('openDirectiveContainers', () => {
  test('blanks MyST container fences and their options, keeps every line and leaves code alone', () => {
    const md = ['````{tab-set}', '```{tab-item} CLI', ':sync: cli', '', '| a |', '```', '````', '', '```bash', ':::', '```{note}', '```', ''].join('\n');
    const out = openDirectiveContainers(md);
    expect(out.split('\n')).toEqual(['', '', '', '', '| a |', '', '', '', '```bash', ':::', '```{note}', '```', '']);
  });

  test('colon fences: containers are blanked, other MyST directives become backtick fences, a lone ::: stays', () => {
    const md = [':::{note}', ':class: x', 'text', ':::', ':::{list-table}', ':header-rows: 1', '* - a', ':::', ':::', ':::tip[Grains]{.compact}', 'x', ':::'].join('\n');
    expect(openDirectiveContainers(md).split('\n')).toEqual(['', '', 'text', '', '```{list-table}', ':header-rows: 1', '* - a', '```', ':::', '', 'x', '']);
  });

  test('attributes of remark-directive text and leaf directives become blanks, so MDX parses the page', () => {
    const md = ':a[Sponsored by:]{.sponsors-intro href="/sponsors"}\nkey:value{x} ::yt[v]{#id}\n';
    expect(openDirectiveContainers(md)).toBe(':a[Sponsored by:]' + ' '.repeat(34) + '\nkey:value{x} ::yt[v]     \n');
    expect(parseDoc('docs/index.mdx', `# Home\n\n${md}`).diagnostics).toEqual([]);
  });

  test('a `---` options block inside a MyST container is skipped', () => {
    const md = ['```{admonition} Options', '---', 'class: tip', '---', '- `--port`: port.', '```'].join('\n');
    expect(openDirectiveContainers(md).split('\n')).toEqual(['', '', '', '', '- `--port`: port.', '']);
  });
});

describe('MyST list-table', () => {
  test('without :header-rows:, a first row of column headers is the header; positions are the file\'s', () => {
    const md = ['# `tool`', '', '```{list-table}', '* - Flag', '  - Description', '* - `--port`', '  - Port. Default: `8000`.', '```', ''].join('\n');
    const table = parseDoc('docs/cli.md', md).doc.blocks[0]!.tables[0]!;
    expect(table.header).toEqual(['Flag', 'Description']);
    expect(table.rows.map((r) => r.cellCodes)).toEqual([[['--port'], ['8000']]]);
    expect(cellCodeLocation('docs/cli.md', table.rows[0]!, 0, 0)).toMatchObject({ file: 'docs/cli.md', line: 6, column: 5 });
  });

  test('rows of plain values under no header give no header, so no reference table', () => {
    const md = ['# `tool`', '', '```{list-table}', '* - `a`', '  - 1', '```', ''].join('\n');
    expect(parseDoc('docs/cli.md', md).doc.blocks[0]!.tables[0]!.header).toEqual([]);
  });
});

describe('HTML tables and pre blocks', () => {
  test('unclosed cells end at the next cell or row; <th> first row is the header', () => {
    const html = '<table>\n<tr><th>Option<th>Description\n<tr><td><code>--out</code><td>Out &amp; <b>file</b>\n</table>';
    const read = readHtmlTable('a.md', html, 0, offsetMap(html))!;
    expect(read.table.header).toEqual(['Option', 'Description']);
    expect(read.table.rows.map((r) => r.cells)).toEqual([['--out', 'Out & file']]);
    expect(cellCodeLocation('a.md', read.table.rows[0]!, 0, 0)).toMatchObject({ line: 3, column: 15 });
    expect(read.end).toBe(html.length);
  });

  test('a table without header whose first cells are flags reads as Option | Description (npm-check-updates)', () => {
    const html = '<table>\n<tr><td>--cache</td><td>Cache.</td></tr>\n<tr><td>--cacheFile &lt;path&gt;</td><td>File. (default: <code>"x"</code>)</td></tr>\n</table>';
    const read = readHtmlTable('README.md', html, 0, offsetMap(html))!;
    expect(read.table.header).toEqual(['Option', 'Description']);
    expect(read.table.rows.map((r) => r.cells[0])).toEqual(['--cache', '--cacheFile <path>']);
  });

  test('a table without </table> is read up to the end, and a tag cut by `<` is no tag', () => {
    const html = '<table><tr><td>`--a` <x <td>b';
    const read = readHtmlTable('a.md', html, 0, offsetMap(html))!;
    expect(read.table.header).toEqual([]);
    expect(read.table.rows[0]!.cellCodes).toEqual([['--a'], []]);
  });

  test('<pre> keeps columns under blanked tags and reads the language class', () => {
    const html = '<pre><code class="language-console">$ tool --port 1\n</code></pre>';
    const pre = readHtmlPre('a.md', html, 0, offsetMap(html))!;
    expect(pre.lang).toBe('console');
    expect(pre.lines[0]).toEqual({ line: 1, column: 37, text: '$ tool --port 1' });
    expect(readHtmlPre('a.md', '<pre>no end', 0, offsetMap('<pre>no end'))).toBeUndefined();
  });

  test('character references', () => {
    expect(decodeEntities('&lt;dir&gt; &#45;&#x2d;x &bogus; &amp;amp;')).toBe('<dir> --x &bogus; &amp;');
  });

  test('a <pre> example in an .md page gives invocations at their file positions', () => {
    const md = ['# Run', '', '<pre>', 'tool --port 1', '</pre>', ''].join('\n');
    const { doc } = parseDoc('README.md', md);
    expect(doc.invocations.map((i) => [i.command, i.location.line, i.args.map((a) => [a.text, a.location.column])])).toEqual([
      ['tool', 4, [['--port', 6], ['1', 13]]],
    ]);
  });
});
