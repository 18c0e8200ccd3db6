/**
 * The language server's reading of large messages (src/lsp/big-text.ts, #33 s38 sweep D7): a large
 * body parsed with its long strings cut out gives what `JSON.parse` gives, escapes, non-ASCII text
 * and surrogates included; a text over the read cap becomes a marker with its size.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { LARGE_MESSAGE_BYTES, LONG_STRING_BYTES, omittedMarker, parseMessageBody, readOmitted, textSha1 } from '../src/lsp/big-text.js';
import { MAX_READ_BYTES } from '../src/shared/read-file.js';
import { seededRandom } from './helpers.js';

const NONCE = 'test-nonce';
const body = (message: unknown): Uint8Array => new Uint8Array(Buffer.from(JSON.stringify(message), 'utf8'));

/** A random text of about `length` code units, of pieces JSON escapes or UTF-8 encodes in every way. */
function randomText(random: () => number, length: number): string {
  const pieces = ['plain text ', '\n', '\r\n', '\t', '"', '\\', '/', '\\"', '\u0000', '\u001f', '\u007f', 'é', '\u00a9', '\u20ac', '日本語', '😀', '\ud83d\ude00', '\ud800', '\udfff x', 'a\\u0041', '\u2028', '```', '| a | b |'];
  const out: string[] = [];
  for (let n = 0; n < length; ) {
    const piece = pieces[Math.floor(random() * pieces.length)]!;
    out.push(piece);
    n += piece.length;
  }
  return out.join('');
}

describe('parseMessageBody', () => {
  it('gives what JSON.parse gives for large bodies of long strings of every kind (40 seeded cases)', () => {
    const random = seededRandom(38);
    const padding = randomText(random, LARGE_MESSAGE_BYTES);
    for (let i = 0; i < 40; i++) {
      // Long strings, short ones and keys, in the order a client may write them.
      const long = randomText(random, LONG_STRING_BYTES + Math.floor(random() * 3 * LONG_STRING_BYTES));
      const message = {
        jsonrpc: '2.0',
        method: 'textDocument/didChange',
        params: {
          contentChanges: [{ text: long }, { text: randomText(random, 50) }],
          textDocument: { uri: 'file:///p/docs/a "b".md', version: i },
          // Long strings cut out, the rest parsed: over the large-body size whatever `long` is.
          padding: i % 2 === 0 ? padding : randomText(random, LONG_STRING_BYTES - 1),
          more: 'x'.repeat(LARGE_MESSAGE_BYTES),
        },
      };
      // Half the cases with non-ASCII written as \u escapes too (a pair as two), as some clients write them.
      const json = JSON.stringify(message);
      const bytes = new Uint8Array(Buffer.from(i % 2 === 0 ? json : json.replaceAll('é', '\\u00e9').replaceAll('€', '\\u20AC').replaceAll('😀', '\\ud83d\\uDE00').replaceAll('日', '\\u65e5'), 'utf8'));
      expect(bytes.length).toBeGreaterThanOrEqual(LARGE_MESSAGE_BYTES);
      const expected = JSON.stringify(JSON.parse(Buffer.from(bytes).toString('utf8')));
      expect(JSON.stringify(parseMessageBody(bytes, NONCE)) === expected).toBe(true);
    }
  });

  it('parses a small body as JSON.parse does, and throws on a malformed long string as JSON.parse does', () => {
    expect(parseMessageBody(body({ a: ['x', 1, null, { b: '\u20ac' }] }), NONCE)).toEqual({ a: ['x', 1, null, { b: '\u20ac' }] });
    const bad = Buffer.from(`{"text":"${'a'.repeat(LARGE_MESSAGE_BYTES)}\\x"}`, 'utf8');
    expect(() => parseMessageBody(new Uint8Array(bad), NONCE)).toThrow(SyntaxError);
    const unterminated = Buffer.from(`{"text":"${'a'.repeat(LARGE_MESSAGE_BYTES)}`, 'utf8');
    expect(() => parseMessageBody(new Uint8Array(unterminated), NONCE)).toThrow(SyntaxError);
  });

  it('holds a text over the read cap as a marker with its UTF-8 size, not its text; an edit of the marker reads as edited', () => {
    // 64 MiB of `a`, then escapes that shrink in UTF-8: \n (2 -> 1 byte), \u00e9 (6 -> 2), \ud83d\ude00 (12 -> 4).
    const text = `${'a'.repeat(MAX_READ_BYTES)}\né😀`;
    const value = (parseMessageBody(new Uint8Array(Buffer.from(`{"text":${JSON.stringify(text).replace('é', '\\u00e9').replace('😀', '\\ud83d\\ude00')}}`, 'utf8')), NONCE) as { text: string }).text;
    expect(value.length).toBeLessThan(200);
    const omitted = readOmitted(value, NONCE);
    expect(omitted).toMatchObject({ bytes: Buffer.byteLength(text) });
    expect(Buffer.byteLength(text)).toBe(MAX_READ_BYTES + 1 + 2 + 4);
    expect(readOmitted(value, 'another-nonce')).toBeUndefined();
    expect(readOmitted(`x${value}`, NONCE)).toBe('edited');
    expect(readOmitted(omittedMarker(NONCE, { bytes: 5, sha1: 'a'.repeat(40) }), NONCE)).toEqual({ bytes: 5, sha1: 'a'.repeat(40) });
    // A text at the cap is kept.
    const atCap = `${'a'.repeat(MAX_READ_BYTES - 1)}\n`;
    expect((parseMessageBody(new Uint8Array(Buffer.from(JSON.stringify({ text: atCap }), 'utf8')), NONCE) as { text: string }).text === atCap).toBe(true);
  });
});

describe('parseMessageBody on text dense with escapes', () => {
  it('decodes a page whose newlines are an escape every 8 bytes without a native call per escape (s44 sweep G3: 115 ms a 10 MB page)', () => {
    // Over the large-body size: decoded on its own, not by JSON.parse.
    const lines = Math.ceil((2 * LARGE_MESSAGE_BYTES) / 24);
    const text = '```bash\ntool +sed=1\n```\n'.repeat(lines);
    const bytes = body({ jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri: 'file:///p/a.md', version: 2 }, contentChanges: [{ text }] } });
    const escapes = 3 * lines;
    const indexOf = vi.spyOn(Buffer.prototype, 'indexOf');
    const copyWithin = vi.spyOn(Buffer.prototype, 'copyWithin');
    try {
      const parsed = parseMessageBody(bytes, NONCE) as { params: { contentChanges: Array<{ text: string }> } };
      expect(parsed.params.contentChanges[0]!.text === text).toBe(true);
      // Measured and unescaped: each escape cost an indexOf in both walks and a copyWithin.
      expect(indexOf.mock.calls.length).toBeLessThan(escapes / 100);
      expect(copyWithin.mock.calls.length).toBeLessThan(escapes / 100);
    } finally {
      indexOf.mockRestore();
      copyWithin.mockRestore();
    }
  });
});

describe('textSha1', () => {
  it('equals the sha1 of the whole string, surrogate pairs across its slices included', () => {
    const random = seededRandom(7);
    for (const length of [0, 10, 1024 * 1024 - 1, 1024 * 1024, 3 * 1024 * 1024 + 5]) {
      let text = randomText(random, length);
      // A pair straddling the first slice's end.
      if (text.length > 1024 * 1024) text = `${text.slice(0, 1024 * 1024 - 1)}😀${text.slice(1024 * 1024 + 1)}`;
      expect(textSha1(text)).toBe(createHash('sha1').update(text).digest('hex'));
    }
  });
});
