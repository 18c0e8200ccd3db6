/** The language server's pure conversions (src/lsp/convert.ts) and its per-file cache (src/lsp/pieces.ts). */
import { describe, expect, it } from 'vitest';
import { VFileMessage } from 'vfile-message';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { findingRange, fixTitle, lineStarts, lspSeverity, offsetToPosition, rangesTouch, toDiagnostic, toLspPosition } from '../src/lsp/convert.js';
import { codeSpan, escapeMarkdown } from '../src/lsp/navigate.js';
import { GenerationalPieceStore } from '../src/lsp/pieces.js';
import type { DriftMessage } from '../src/model/rule.js';

function finding(start: { line: number; column: number }, end?: { line: number; column: number }, extra: Partial<DriftMessage> = {}): DriftMessage {
  const m = new VFileMessage('`x` is unknown', { place: end ? { start, end } : start, ruleId: 'example-param-unknown', source: 'docdrift' }) as DriftMessage;
  m.file = 'README.md';
  m.severity = 'error';
  Object.assign(m, extra);
  return m;
}

describe('LSP conversions', () => {
  it('1-based line/column become 0-based; a whole-file finding (0) is 0:0', () => {
    expect(toLspPosition(9, 5)).toEqual({ line: 8, character: 4 });
    expect(toLspPosition(0, 0)).toEqual({ line: 0, character: 0 });
    expect(toLspPosition(undefined, undefined)).toEqual({ line: 0, character: 0 });
  });

  it('a finding becomes a diagnostic with its range, severity, rule id as code and source docdrift', () => {
    const d = toDiagnostic(finding({ line: 9, column: 5 }, { line: 9, column: 18 }), '3');
    expect(d).toEqual({ range: { start: { line: 8, character: 4 }, end: { line: 8, character: 17 } }, severity: 1, code: 'example-param-unknown', source: 'docdrift', message: '`x` is unknown', data: { key: '3' } });
    expect(findingRange(finding({ line: 2, column: 3 }))).toEqual({ start: { line: 1, character: 2 }, end: { line: 1, character: 2 } });
    expect([lspSeverity('error'), lspSeverity('warn'), lspSeverity('info'), lspSeverity(undefined, true)]).toEqual([1, 2, 3, 1]);
  });

  it('UTF-16 offsets of a fix become positions, as TextDocument.positionAt computes them', () => {
    const text = 'a\r\n| `é` |\n\n😀x';
    expect(offsetToPosition(text, 0)).toEqual({ line: 0, character: 0 });
    expect(offsetToPosition(text, 3)).toEqual({ line: 1, character: 0 });
    expect(offsetToPosition(text, 2)).toEqual({ line: 0, character: 2 });
    expect(offsetToPosition(text, text.indexOf('x'))).toEqual({ line: 3, character: 2 });
    expect(offsetToPosition(text, 999)).toEqual({ line: 3, character: 3 });
  });

  it('with the line starts computed once, every offset of a text maps as TextDocument.positionAt maps it (s29 sweep2 D2)', () => {
    const text = 'a\r\n| `é` |\n\n😀x\n\n| `y` | `1` |\n';
    const starts = lineStarts(text);
    expect(starts).toEqual([0, 3, 11, 12, 16, 17, 31]);
    const doc = TextDocument.create('file:///x.md', 'markdown', 1, text);
    for (let offset = 0; offset <= text.length + 2; offset++) {
      // positionAt puts an offset inside a \r\n pair at the line's end; docdrift's fixes never split one.
      if (text[offset - 1] === '\r') continue;
      expect(offsetToPosition(text, offset, starts)).toEqual(doc.positionAt(offset));
      expect(offsetToPosition(text, offset)).toEqual(doc.positionAt(offset));
    }
    expect(lineStarts('')).toEqual([0]);
    expect(offsetToPosition('', 5, lineStarts(''))).toEqual({ line: 0, character: 0 });
  });

  it('ranges touch when they overlap or meet; fix titles say what the edit does', () => {
    const r = (a: number, b: number, c: number, d: number) => ({ start: { line: a, character: b }, end: { line: c, character: d } });
    expect(rangesTouch(r(1, 0, 1, 5), r(1, 5, 1, 5))).toBe(true);
    expect(rangesTouch(r(1, 0, 1, 5), r(2, 0, 2, 1))).toBe(false);
    const insert = finding({ line: 1, column: 1 }, undefined, { fix: { file: 'README.md', start: 4, end: 4, text: '\n| `x` | bool | |' } });
    expect(fixTitle(insert)).toBe('docdrift: insert | `x` | bool | | (example-param-unknown)');
  });
});

describe('hover Markdown of the project\'s words (s29 sweep2 O3)', () => {
  it('descriptions are plain text: no image, link, HTML, emphasis or block mark survives', () => {
    expect(escapeMarkdown('See ![x](https://host/x.png) and [docs](https://e.x) <img src=y> *b* a|b ~s~ &amp;')).toBe(
      'See \\!\\[x\\](https://host/x.png) and \\[docs\\](https://e.x) \\<img src=y\\> \\*b\\* a\\|b \\~s\\~ \\&amp;',
    );
    expect(escapeMarkdown('# h\n> q\n- item\n  1. one\n2) two\n===\nplain text, 3.5 ok')).toBe('\\# h\n\\> q\n\\- item\n  1\\. one\n2\\) two\n\\===\nplain text, 3.5 ok');
    expect(escapeMarkdown('Resume an interrupted run by skipping rows already completed in the output file.')).toBe('Resume an interrupted run by skipping rows already completed in the output file.');
  });

  it('names are one code span whatever backticks they hold', () => {
    expect(codeSpan('resume_from_cache')).toBe('`resume_from_cache`');
    expect(codeSpan('a`b')).toBe('``a`b``');
    expect(codeSpan('`x')).toBe('`` `x ``');
    expect(codeSpan('a\nb')).toBe('`a b`');
  });
});

describe('the server\'s per-file cache', () => {
  it('keeps what the last lint used or stored and drops the rest', () => {
    const store = new GenerationalPieceStore();
    store.set('doc:a', { n: 1 });
    store.set('doc:b', { n: 2 });
    store.nextRun();
    expect(store.get('doc:a')).toEqual({ n: 1 });
    store.nextRun();
    expect(store.has('doc:a')).toBe(true);
    expect(store.has('doc:b')).toBe(false);
    store.keep(['doc']);
    store.nextRun();
    store.nextRun();
    expect(store.get('doc:a')).toBeUndefined();
    expect(store.empty).toBe(true);
  });
});
