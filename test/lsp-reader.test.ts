/**
 * The language server's message reader (src/lsp/reader.ts, #33 s38 sweep D8): the base protocol's
 * frames, however the bytes are cut, each message delivered within the `push` that completes it;
 * malformed and oversized frames reported and skipped, the frames after them read (s44 sweep G1, G2).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChunkMessageReader, MAX_HEADER_BYTES, MAX_MESSAGE_BYTES, ReaderWarning } from '../src/lsp/reader.js';
import { CLI_BIN } from './helpers.js';

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

  /** A reader whose messages and errors are collected; `held()` is the number of bytes it keeps. */
  const collecting = (): { reader: ChunkMessageReader; got: unknown[]; errors: string[]; held: () => number } => {
    const reader = new ChunkMessageReader(decode);
    const got: unknown[] = [];
    const errors: string[] = [];
    reader.onError((e) => errors.push(e.message));
    reader.listen((m) => got.push(m));
    return { reader, got, errors, held: () => (reader as unknown as { length: number }).length };
  };

  it('finds a header\'s end however it is cut across chunks, a `\\r` or `\\r\\n\\r` that does not end it included', () => {
    const streams = [
      Buffer.concat([Buffer.from('Content-Length: 11\r\nX-A: 1\r\r\n\r\n{"a":1}\r\n\r\n', 'latin1'), frame({ b: 2 })]),
      Buffer.concat([Buffer.from('X-A: \r\n\rX-B: b\r\nContent-Length: 2\r\n\r\n{}', 'latin1'), frame({ c: 3 })]),
    ];
    for (const bytes of streams) {
      const whole = collecting();
      whole.reader.push(bytes);
      expect(whole.errors).toEqual([]);
      for (let i = 1; i < bytes.length; i++) {
        for (let j = i; j < bytes.length; j++) {
          const cut = collecting();
          for (const part of [bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)]) cut.reader.push(part);
          expect(cut.got, `cut at ${i} and ${j}`).toEqual(whole.got);
          expect(cut.errors).toEqual([]);
        }
      }
    }
  });

  it('searches only the new bytes of a header that has not ended: 32 MB of it in 64 KB chunks take under a second and are not held (s44 sweep G1: 7 s)', () => {
    const { reader, got, errors, held } = collecting();
    reader.push(Buffer.from('Content-Length: 10\r\nX-Junk: ', 'latin1'));
    const start = performance.now();
    let most = 0;
    for (let i = 0; i < 512; i++) {
      reader.push(Buffer.alloc(64 * 1024, 'A'));
      most = Math.max(most, held());
    }
    reader.push(Buffer.concat([Buffer.from('\r\n\r\n0123456789', 'latin1'), frame({ after: 1 })]));
    expect(performance.now() - start).toBeLessThan(1000);
    expect(most).toBeLessThanOrEqual(MAX_HEADER_BYTES + 64 * 1024);
    // Reported once; the length its first line gave is its body's, skipped too: the next message is read.
    expect(errors).toEqual([`Message header part is over ${MAX_HEADER_BYTES} bytes (a client sends a few dozen): skipped to its end, with its body of 10 bytes`]);
    expect(got).toEqual([{ after: 1 }]);
    expect(held()).toBe(0);
  });

  it('skips a header part over the cap to its end, whole or in pieces, with or without a length in its first bytes; reports it once', () => {
    const junk = 'A'.repeat(MAX_HEADER_BYTES + 100);
    const cases = [
      Buffer.concat([frame({ before: 0 }), Buffer.from(`Content-Length: 3\r\nX-Junk: ${junk}\r\n\r\n{x}`, 'latin1'), frame({ after: 1 })]),
      Buffer.concat([frame({ before: 0 }), Buffer.from(`X-Junk: ${junk}\r\n\r\n`, 'latin1'), frame({ after: 1 })]),
      // Its last line is over the cap too: the length on it is not seen, and the header alone is skipped.
      Buffer.concat([frame({ before: 0 }), Buffer.from(`X-Junk: ${junk}\r\nContent-Length: 0\r\n\r\n`, 'latin1'), frame({ after: 1 })]),
    ];
    for (const bytes of cases) {
      for (const size of [bytes.length, 65_536, 1000, 3]) {
        const { reader, got, errors } = collecting();
        for (let at = 0; at < bytes.length; at += size) reader.push(bytes.subarray(at, at + size));
        expect(got).toEqual([{ before: 0 }, { after: 1 }]);
        expect(errors).toHaveLength(1);
        expect(errors[0]).toContain(`over ${MAX_HEADER_BYTES} bytes`);
      }
    }
  });

  it('reports a Content-Length that is not a non-negative decimal integer, skips that header and reads the next message (s44 sweep G2: -5 left the server deaf)', () => {
    for (const value of ['-5', '-1', '5abc', '+5', '0x10', '1e3', '5.0', '5 5', '', ' ']) {
      const { reader, got, errors } = collecting();
      reader.push(Buffer.concat([frame({ a: 1 }), Buffer.from(`Content-Length: ${value}\r\n\r\n`, 'latin1'), frame({ b: 2 }), frame({ c: 3 })]));
      expect(got, value).toEqual([{ a: 1 }, { b: 2 }, { c: 3 }]);
      expect(errors).toEqual([`Content-Length value must be a non-negative decimal integer. Got ${value.trim()}`]);
    }
    // Spaces and tabs around the digits, and leading zeros, are a length.
    const { reader, got, errors } = collecting();
    reader.push(Buffer.from('Content-Length: \t007 \r\n\r\n{"a":1}', 'latin1'));
    expect(got).toEqual([{ a: 1 }]);
    expect(errors).toEqual([]);
  });

  it('reports a header giving Content-Length twice with different values, reads the frame with the last (as vscode-jsonrpc does); equal repeats are no report (s45 sweep judgement call)', () => {
    const { reader, got, errors } = collecting();
    reader.push(Buffer.from('Content-Length: 999\r\nContent-Length: 7\r\n\r\n{"a":1}', 'latin1'));
    reader.push(Buffer.from('Content-Length: 7\r\ncontent-length:  7 \r\n\r\n{"b":2}', 'latin1'));
    reader.push(frame({ c: 3 }));
    expect(got).toEqual([{ a: 1 }, { b: 2 }, { c: 3 }]);
    expect(errors).toEqual(['Message header gives Content-Length more than once with different values (999, 7): the last one, 7, is used; the messages after this one may be misread']);
    // A warning (the server logs it as one), not a dropped message.
    const kinds: boolean[] = [];
    const second = new ChunkMessageReader(decode);
    second.onError((e) => kinds.push(e instanceof ReaderWarning));
    second.push(Buffer.from('Content-Length: 1\r\nContent-Length: 7\r\n\r\n{"a":1}Content-Length: x\r\n\r\n', 'latin1'));
    expect(kinds).toEqual([true, false]);
  });

  it('takes a Content-Length of 0 that ends a chunk (the server died on it), and reports its empty body', () => {
    const { reader, got, errors } = collecting();
    reader.push(Buffer.from('Content-Length: 0\r\n\r\n', 'latin1'));
    reader.push(frame({ b: 2 }));
    expect(errors).toEqual(['Unexpected end of JSON input']);
    expect(got).toEqual([{ b: 2 }]);
  });

  it('skips the body of a Content-Length over the cap as it comes, without holding it, and reads the next message', () => {
    const { reader, got, errors, held } = collecting();
    const length = MAX_MESSAGE_BYTES + 1;
    reader.push(Buffer.from(`Content-Length: ${length}\r\n\r\n`, 'latin1'));
    expect(errors).toEqual([`Content-Length ${length} is over the ${MAX_MESSAGE_BYTES} bytes a message may have: its body is skipped`]);
    const mb = Buffer.alloc(1024 * 1024, 'x');
    let most = 0;
    for (let sent = 0; sent < length; sent += mb.length) {
      reader.push(mb.subarray(0, Math.min(mb.length, length - sent)));
      most = Math.max(most, held());
    }
    expect(most).toBe(0);
    reader.push(frame({ b: 2 }));
    expect(got).toEqual([{ b: 2 }]);
    expect(errors).toHaveLength(1);
  });

  it('drops a body that is valid JSON but no object (`null`, a number, a string, a boolean) with one report each; an array goes on to vscode-jsonrpc (s45 sweep G3)', () => {
    const got: unknown[] = [];
    const observed: unknown[] = [];
    const errors: string[] = [];
    const reader = new ChunkMessageReader(decode, (m) => observed.push(m));
    reader.onError((e) => errors.push(e.message));
    reader.listen((m) => got.push(m));
    reader.push(Buffer.concat([null, 42, 'x', true, [], { a: 1 }].map((m) => frame(m))));
    expect(got).toEqual([[], { a: 1 }]);
    expect(observed).toEqual([[], { a: 1 }]);
    expect(errors).toEqual(['its body is null, not a JSON object', 'its body is a JSON number, not a JSON object', 'its body is a JSON string, not a JSON object', 'its body is a JSON boolean, not a JSON object']);
  });

  it('the server answers the requests around a `null` body and exits 0 (it ended with "internal error: Cannot destructure property \'method\'")', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'docdrift-null-body-'));
    try {
      const raw = (body: string): Buffer => Buffer.concat([Buffer.from(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`, 'latin1'), Buffer.from(body, 'utf8')]);
      const input = Buffer.concat([
        raw(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } })),
        raw('null'),
        raw(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'shutdown' })),
        raw(JSON.stringify({ jsonrpc: '2.0', method: 'exit' })),
      ]);
      const r = spawnSync(process.execPath, [CLI_BIN, 'lsp', '--stdio'], { cwd: dir, input, encoding: 'utf8', timeout: 60_000 });
      expect(r.stderr).not.toContain('internal error');
      expect(r.status).toBe(0);
      expect([...r.stdout.matchAll(/"id":(\d+)/g)].map((m) => m[1])).toEqual(['1', '2']);
      expect(r.stdout).toContain('dropped a message from the client: its body is null, not a JSON object');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
