/**
 * The language server's message reader (src/lsp/reader.ts, #33 s38 sweep D8): the base protocol's
 * frames, however the bytes are cut, each message delivered within the `push` that completes it.
 */
import { describe, expect, it } from 'vitest';
import { ChunkMessageReader } from '../src/lsp/reader.js';

const frame = (message: unknown, header = 'Content-Length'): Buffer => {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`${header}: ${body.length}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n`, 'latin1'), body]);
};
const decode = (body: Uint8Array): unknown => JSON.parse(Buffer.from(body).toString('utf8'));

describe('ChunkMessageReader', () => {
  it('delivers each message in the push that completes it, in order, however the bytes are cut', () => {
    const messages = [{ jsonrpc: '2.0', id: 1, method: 'initialize', params: { text: 'é😀\r\n\r\n' } }, { jsonrpc: '2.0', method: 'initialized', params: {} }, { jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri: 'file:///a.md', version: 2 }, contentChanges: [{ text: 'x'.repeat(70_000) }] } }];
    const bytes = Buffer.concat(messages.map((m, i) => frame(m, i === 1 ? 'content-length' : 'Content-Length')));
    for (const size of [1, 2, 7, 64, 1000, 65_536, bytes.length]) {
      const got: unknown[] = [];
      const observed: unknown[] = [];
      const reader = new ChunkMessageReader(decode, (m) => observed.push(m));
      reader.listen((m) => got.push(m));
      const ends: number[] = [];
      for (let at = 0; at < bytes.length; at += size) {
        reader.push(bytes.subarray(at, at + size));
        ends.push(got.length);
      }
      expect(got).toEqual(messages);
      expect(observed).toEqual(messages);
      // Delivered as soon as its last byte came: after the push that held the first message's last byte, one message was out.
      const firstEnd = frame(messages[0]).length;
      expect(ends[Math.ceil(firstEnd / size) - 1]).toBeGreaterThanOrEqual(1);
    }
  });

  it('keeps messages that came before anyone listened; reports a frame without a length and goes on with the next', () => {
    const reader = new ChunkMessageReader(decode);
    const errors: string[] = [];
    reader.onError((e) => errors.push(e.message));
    reader.push(Buffer.concat([Buffer.from('X-Other: 1\r\n\r\n', 'latin1'), frame({ a: 1 }), Buffer.from('Content-Length: 3\r\n\r\n{x}', 'latin1'), frame({ b: 2 })]));
    const got: unknown[] = [];
    reader.listen((m) => got.push(m));
    expect(got).toEqual([{ a: 1 }, { b: 2 }]);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toContain('Content-Length');
    let closed = false;
    reader.onClose(() => (closed = true));
    reader.push(Buffer.from('Content-Length: 10\r\n\r\n{"a"', 'latin1'));
    reader.end();
    expect(closed).toBe(true);
    expect(got).toHaveLength(2);
  });
});
