/**
 * Range edits past the language server's size limits (#33 s47 sweep K2, J9). The server announces
 * full-text sync, but a client that ignores it sends range edits: three buffers grown by 8 MB range
 * inserts to 96 MB each stopped the server at its heap limit, while a page arriving whole over the
 * same limits was held as a marker and reported. Here, under a 48 MB heap
 * (DOCDRIFT_TEST_LSP_HEAP_MB): a page grown by 6 MB range inserts to 72 MB, and one given 70 MB in
 * one range insert, are reported, the server lives, and a range edit that replaces the whole text
 * gives normal diagnostics again; a page opened at 3 MB and edited by range says so at once (J9).
 * Spawns the bundled bin (needs `npm run build`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from './helpers.js';
import { startServer } from './lsp-small-heap.js';

afterAll(removeTempDirs);

/** A page whose one example passes `sed`, a typo of `tool`'s `seed`. */
const STALE = '# tool\n\n```bash\ntool +sed=1\n```\n';
const STALE_FINDING = '4:example-param-unknown `sed` is not a parameter of `tool` (config: ToolConfig). Did you mean `seed`?';


/** A range from `start` to `end`, each `[line, character]`. */
const range = (start: [number, number], end: [number, number]): object => ({ start: { line: start[0], character: start[1] }, end: { line: end[0], character: end[1] } });

describe('docdrift lsp: range edits past the size limits', () => {
  it('a page grown by range inserts past 64 MB, and one given 70 MB by one insert, under a 48 MB heap: reported as not read, the server lives; a range edit replacing the whole text gives normal diagnostics again', async () => {
    const { uri, send, published, stop } = await startServer();
    const chunk = 'Some words of prose naming `tool` and more words here.\n\n'.repeat(Math.ceil((6 * 1024 * 1024) / 56));
    const chunkLines = chunk.split('\n').length - 1;
    const steps = 12;
    await send('textDocument/didOpen', { textDocument: { uri: uri('docs/grow.md'), languageId: 'markdown', version: 1, text: STALE } });
    const opened = await published('docs/grow.md', 1);
    // One edit at a time, as a user's client sends them (range edits queued unhandled are not bounded here).
    let grown: string[] | undefined;
    for (let step = 0; step < steps; step++) {
      await send('textDocument/didChange', { textDocument: { uri: uri('docs/grow.md'), version: step + 2 }, contentChanges: [{ range: range([1, 0], [1, 0]), text: chunk }] });
      grown = await published('docs/grow.md', step + 2);
    }
    // The whole text replaced by one range edit (its end: the client's last line): known again.
    const end = STALE.split('\n').length - 1 + steps * chunkLines;
    await send('textDocument/didChange', { textDocument: { uri: uri('docs/grow.md'), version: 100 }, contentChanges: [{ range: range([0, 0], [end, 0]), text: STALE }] });
    const shrunk = await published('docs/grow.md', 100);
    // 70 MB in one range insert: over the read cap, never built.
    const huge = 'x'.repeat(70 * 1024 * 1024);
    await send('textDocument/didOpen', { textDocument: { uri: uri('docs/huge.md'), languageId: 'markdown', version: 1, text: STALE } });
    await send('textDocument/didChange', { textDocument: { uri: uri('docs/huge.md'), version: 2 }, contentChanges: [{ range: range([5, 0], [5, 0]), text: huge }] });
    const tooLarge = await published('docs/huge.md', 2);
    // The server never decoded the inserted text, so it does not know where it ends: a full-text edit brings it back.
    await send('textDocument/didChange', { textDocument: { uri: uri('docs/huge.md'), version: 3 }, contentChanges: [{ text: STALE }] });
    const back = await published('docs/huge.md', 3);
    const { answered, code, stderr } = await stop();
    expect(stderr).toBe('');
    expect(opened).toEqual([STALE_FINDING]);
    expect(grown).toEqual(['1:parse-error Cannot read docs/grow.md: EFBIG (edited by range after it went over the 1 MB limit for one document, the language server holds no text of it: close and reopen it)']);
    expect(shrunk).toEqual([STALE_FINDING]);
    expect(tooLarge).toEqual([`1:parse-error Cannot read docs/huge.md: EFBIG (${((huge.length + STALE.length) / (1024 * 1024)).toFixed(1)} MB, over the 64.0 MB limit)`]);
    expect(back).toEqual([STALE_FINDING]);
    expect(answered).toBe(true);
    expect(code).toBe(0);
  }, 300_000);

  it('a page that goes over the document limit by one range insert is held and judged as one arriving whole (J9: a held page edited by range says so at once, or is parsed when replaced whole)', async () => {
    const { uri, send, published, stop } = await startServer();
    const mb = 3;
    const naming = 'Some words of prose here `tool` and more words.\n\n'.repeat(Math.ceil((mb * 1024 * 1024) / 50));
    await send('textDocument/didOpen', { textDocument: { uri: uri('docs/cross.md'), languageId: 'markdown', version: 1, text: STALE } });
    const opened = await published('docs/cross.md', 1);
    await send('textDocument/didChange', { textDocument: { uri: uri('docs/cross.md'), version: 2 }, contentChanges: [{ range: range([5, 0], [5, 0]), text: naming }] });
    const crossed = await published('docs/cross.md', 2);
    // Opened at 3 MB (held), then a range edit that keeps its first line: the text is unknown from that edit on.
    await send('textDocument/didOpen', { textDocument: { uri: uri('docs/held.md'), languageId: 'markdown', version: 1, text: `# tool\n\n${naming}` } });
    const held = await published('docs/held.md', 1);
    await send('textDocument/didChange', { textDocument: { uri: uri('docs/held.md'), version: 2 }, contentChanges: [{ range: range([1, 0], [100_000_000, 0]), text: '\nA short page now.\n' }] });
    const edited = await published('docs/held.md', 2);
    await send('textDocument/didChange', { textDocument: { uri: uri('docs/held.md'), version: 3 }, contentChanges: [{ range: range([0, 0], [100_000_000, 0]), text: STALE }] });
    const replaced = await published('docs/held.md', 3);
    const { answered, code, stderr } = await stop();
    const size = (text: string): string => (text.length / (1024 * 1024)).toFixed(1);
    expect(stderr).toBe('');
    expect(opened).toEqual([STALE_FINDING]);
    expect(crossed).toEqual([`1:parse-error Not read: it is ${size(STALE + naming)} MB, over the 1 MB limit for one document, which the Markdown parser cannot handle in bounded time`]);
    expect(held).toEqual([`1:parse-error Not read: it is ${size(`# tool\n\n${naming}`)} MB, over the 1 MB limit for one document, which the Markdown parser cannot handle in bounded time`]);
    expect(edited).toEqual(['1:parse-error Cannot read docs/held.md: EFBIG (edited by range after it went over the 1 MB limit for one document, the language server holds no text of it: close and reopen it)']);
    expect(replaced).toEqual([STALE_FINDING]);
    expect(answered).toBe(true);
    expect(code).toBe(0);
  }, 300_000);
});
