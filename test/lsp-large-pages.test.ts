/**
 * Open pages over the document limit in the language server (#33 s46 sweep H4): four open pages of
 * 60 MB, each "Not read: over the 1 MB limit", were held whole and stopped the server at its 256 MB
 * heap limit (exit 1 at 530-603 MB of RSS; shutdown never answered). The server now keeps what a
 * lint's verdict on such a page reads instead of its text (src/engine/held-pages.ts). Here the
 * same at a smaller scale: five 10 MB pages under a 48 MB heap (DOCDRIFT_TEST_LSP_HEAP_MB). Spawns
 * the bundled bin (needs `npm run build`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from './helpers.js';
import { startServer } from './lsp-small-heap.js';

afterAll(removeTempDirs);

describe('docdrift lsp: open pages over the document limit', () => {
  it('five open pages of 10 MB under a 48 MB heap: each gets the CLI\'s verdict (a page naming no command none), the server lives and answers shutdown; a full-text edit back under the limit is parsed, a range edit of a held page says so', async () => {
    const { uri, send, published, stop } = await startServer();
    const mb = 10;
    const naming = '# tool\n\nSome words of prose here `tool` and more words.\n\n'.repeat(Math.ceil((mb * 1024 * 1024) / 56));
    const quiet = 'Some words of prose here and more words, naming nothing.\n\n'.repeat(Math.ceil((mb * 1024 * 1024) / 59));
    const pages = ['docs/big0.md', 'docs/big1.md', 'docs/big2.md', 'docs/big3.md'];
    for (const [i, file] of pages.entries()) await send('textDocument/didOpen', { textDocument: { uri: uri(file), languageId: 'markdown', version: 1, text: `${naming}${i}` } });
    await send('textDocument/didOpen', { textDocument: { uri: uri('docs/quiet.md'), languageId: 'markdown', version: 1, text: quiet } });
    const opened = await Promise.all([...pages, 'docs/quiet.md'].map((file) => published(file, 1)));
    // Back under the limit by a full-text edit: parsed, with its normal diagnostics.
    await send('textDocument/didChange', { textDocument: { uri: uri('docs/big0.md'), version: 2 }, contentChanges: [{ text: '# tool\n\n```bash\ntool +sed=1\n```\n' }] });
    const shrunk = await published('docs/big0.md', 2);
    // A range edit applied to a page the server holds no text of: it cannot know the result.
    await send('textDocument/didChange', { textDocument: { uri: uri('docs/big1.md'), version: 2 }, contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, text: '#' }] });
    const ranged = await published('docs/big1.md', 2);
    const { answered, code, stderr } = await stop();
    const notRead = (i: number): string => `1:parse-error Not read: it is ${(((naming.length + String(i).length) / (1024 * 1024)).toFixed(1))} MB, over the 1 MB limit for one document, which the Markdown parser cannot handle in bounded time`;
    expect(stderr).toBe('');
    expect(opened).toEqual([[notRead(0)], [notRead(1)], [notRead(2)], [notRead(3)], []]);
    expect(shrunk).toEqual(['4:example-param-unknown `sed` is not a parameter of `tool` (config: ToolConfig). Did you mean `seed`?']);
    expect(ranged).toEqual(['1:parse-error Cannot read docs/big1.md: EFBIG (edited by range after it went over the 1 MB limit for one document, the language server holds no text of it: close and reopen it)']);
    expect(answered).toBe(true);
    expect(code).toBe(0);
  }, 240_000);
});
