/**
 * Full-text edits that a later one of the same buffer replaces before the server handles them
 * (src/lsp/supersede.ts, #33 s44 sweep G3): dropped as the later one is read, unless a message
 * between them could have seen them.
 */
import type { Message } from 'vscode-languageserver/node';
import { describe, expect, it } from 'vitest';
import { PendingFullChanges } from '../src/lsp/supersede.js';

const A = 'file:///p/docs/a.md';
const B = 'file:///p/docs/b.md';
/** The text changes of a `didChange` built here. */
const changesOf = (message: Message): unknown[] => (message as unknown as { params: { contentChanges: unknown[] } }).params.contentChanges;
const full = (uri: string, version: number, text = `text ${version}`): Message => ({ jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri, version }, contentChanges: [{ text }] } }) as Message;
const ranged = (uri: string, version: number): Message => ({ jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri, version }, contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, text: 'x' }] } }) as Message;
const notification = (method: string, uri: string): Message => ({ jsonrpc: '2.0', method, params: { textDocument: { uri, languageId: 'markdown', version: 1, text: 'opened' } } }) as Message;

/**
 * Reads `messages` in order (the reader's `observe`), the ones listed in `handledAt` handled right
 * after they are read, and the rest handled at the end, in order, as the connection's queue does.
 * Returns the messages the connection handled.
 */
function run(messages: Message[], handledAt: readonly number[] = []): Message[] {
  const pending = new PendingFullChanges();
  const handled: Message[] = [];
  const queue: Message[] = [];
  messages.forEach((message, i) => {
    pending.arrived(message);
    queue.push(message);
    if (handledAt.includes(i)) for (const m of queue.splice(0)) if (pending.handling(m)) handled.push(m);
  });
  for (const m of queue.splice(0)) if (pending.handling(m)) handled.push(m);
  return handled;
}

const versions = (messages: Message[]): string[] => messages.map((m) => {
  const p = (m as { method?: string; params?: { textDocument?: { uri?: string; version?: number } } });
  return `${p.method?.replace('textDocument/', '') ?? 'request'} ${p.params?.textDocument?.uri === B ? 'b' : 'a'}${p.params?.textDocument?.version ?? ''}`;
});

describe('PendingFullChanges', () => {
  it('drops every full-text edit of a buffer that a later one replaces before it is handled, and its text at once', () => {
    const burst = [full(A, 2, 'x'.repeat(1000)), full(A, 3), full(B, 2), full(A, 4), full(B, 3)];
    expect(versions(run(burst))).toEqual(['didChange a4', 'didChange b3']);
    // The dropped edit's text is let go when the next one is read, not when the connection reaches it.
    const pending = new PendingFullChanges();
    const first = full(A, 2);
    pending.arrived(first);
    expect(changesOf(first)).toHaveLength(1);
    pending.arrived(full(A, 3));
    expect(changesOf(first)).toEqual([]);
    // A full-text edit with several full texts (the last one wins) replaces too; the order of versions is the client's.
    expect(versions(run([full(A, 5), { ...full(A, 2), params: { textDocument: { uri: A, version: 2 }, contentChanges: [{ text: 'a' }, { text: 'b' }] } } as Message]))).toEqual(['didChange a2']);
  });

  it('keeps an edit once the connection has handled it, and one that a message between could see', () => {
    // Already handled: nothing to drop.
    expect(versions(run([full(A, 2), full(A, 3)], [0]))).toEqual(['didChange a2', 'didChange a3']);
    // A request (a hover or code action reads the buffer's version), another notification, a response.
    const hover = { jsonrpc: '2.0', id: 7, method: 'textDocument/hover', params: { textDocument: { uri: B }, position: { line: 0, character: 0 } } } as Message;
    const response = { jsonrpc: '2.0', id: 1, result: null } as Message;
    const cancel = { jsonrpc: '2.0', method: '$/cancelRequest', params: { id: 3 } } as Message;
    for (const between of [hover, response, cancel, notification('workspace/didChangeWatchedFiles', A)]) {
      expect(run([full(A, 2), between, full(A, 3)])).toHaveLength(3);
    }
    // A save, a close, an open of the same buffer.
    for (const between of [notification('textDocument/didSave', A), notification('textDocument/didClose', A), notification('textDocument/didOpen', A)]) {
      expect(run([full(A, 2), between, full(A, 4)])).toHaveLength(3);
    }
    // The same of another buffer leaves it droppable.
    expect(versions(run([full(A, 2), notification('textDocument/didSave', B), ranged(B, 3), full(A, 3)]))).toEqual(['didSave b1', 'didChange b3', 'didChange a3']);
  });

  it('drops the range edits a later full-text edit of their buffer replaces, and their texts at once (#33 s49 K3)', () => {
    expect(versions(run([ranged(A, 2), ranged(A, 3), full(B, 2), full(A, 4)]))).toEqual(['didChange b2', 'didChange a4']);
    // A full-text edit, range edits applied on top of it, then another full-text edit: all replaced.
    expect(versions(run([full(A, 2), ranged(A, 3), ranged(A, 4), full(A, 5)]))).toEqual(['didChange a5']);
    const pending = new PendingFullChanges();
    const first = ranged(A, 2);
    pending.arrived(first);
    pending.arrived(full(A, 3));
    expect(changesOf(first)).toEqual([]);
    // One handled stays; one read after it is still replaced.
    expect(versions(run([ranged(A, 2), ranged(A, 3), full(A, 4)], [0]))).toEqual(['didChange a2', 'didChange a4']);
    expect(versions(run([ranged(A, 2), ranged(A, 3), full(A, 4)], [1]))).toEqual(['didChange a2', 'didChange a3', 'didChange a4']);
    // A message that could see them between keeps them.
    expect(run([ranged(A, 2), notification('textDocument/didSave', A), full(A, 3)])).toHaveLength(3);
    expect(run([ranged(A, 2), { jsonrpc: '2.0', id: 9, method: 'textDocument/codeAction', params: {} } as Message, full(A, 3)])).toHaveLength(3);
  });

  it('never drops for a range edit, nor for an edit the update would refuse', () => {
    expect(run([full(A, 2), ranged(A, 3)])).toHaveLength(2);
    expect(run([ranged(A, 2), ranged(A, 3)])).toHaveLength(2);
    const noVersion = { jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri: A, version: null }, contentChanges: [{ text: 'x' }] } } as Message;
    const noText = { jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri: A, version: 3 }, contentChanges: [{ text: null }] } } as Message;
    const none = { jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri: A, version: 3 }, contentChanges: [] } } as Message;
    for (const bad of [noVersion, noText, none]) expect(run([full(A, 2), bad])).toHaveLength(2);
  });
});
