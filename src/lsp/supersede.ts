/**
 * Full-text edits that a later one of the same buffer replaces before the server handles them
 * (#33 s44 sweep G3). The server asks for full-text sync (`TextDocumentSyncKind.Full`): a client
 * sends the whole buffer with every edit, and one that writes them back to back (30 edits of a
 * 10 MB page in 3 s) had their texts decoded and queued in the connection, which handles one
 * message per turn of the event loop and none while a lint that takes the input as it comes runs,
 * until the server thread died at its heap limit (706 MB of RSS). Only the last text of such a run
 * is ever read, so each one before it is dropped as the next arrives: the server holds at most one
 * text per open buffer that it has not handled yet. Range edits (from a client that ignores the
 * full-text sync) that a later full-text edit of the same buffer replaces are dropped with it too
 * (#33 s49 K3): each held its inserted text in the queue, up to the read cap, until handled.
 *
 * An edit is dropped only when nothing between it and the edit that replaces it could have seen
 * it: the messages between are opens, edits, closes and saves of other buffers, and range edits of
 * the same buffer (applied on top of it, and replaced with it). A request (a hover or code action
 * reads the buffer's version), any other notification, or another message naming the buffer (a
 * save, a close, an open) keeps it.
 */
import type { Message } from 'vscode-languageserver/node';

/** The notifications that change or name one buffer, and nothing else: they leave other buffers' pending edits alone. */
const BUFFER_NOTIFICATIONS = new Set(['textDocument/didOpen', 'textDocument/didChange', 'textDocument/didClose', 'textDocument/didSave']);

/** What a message says of the buffers (see {@link PendingFullChanges.arrived}). */
type Shape = { kind: 'full'; uri: string } | { kind: 'range'; uri: string } | { kind: 'buffer'; uri: string } | { kind: 'other' };

/**
 * What `message` is to the buffers: `full` for a `didChange` that replaces its buffer's whole text
 * (a numeric version, which the update needs, and every change a full text as
 * vscode-languageserver-textdocument's `isFull` tells one: a string `text`, no range); `range` for
 * a `didChange` (numeric version) whose every change is a range edit (a string `text` and a
 * range); `buffer` for another notification naming one buffer; `other` for anything else (a
 * request, a response, another notification).
 */
function shapeOf(message: Message): Shape {
  const { method, params } = message as { method?: unknown; params?: unknown; id?: unknown };
  if (typeof method !== 'string' || 'id' in message || !BUFFER_NOTIFICATIONS.has(method)) return { kind: 'other' };
  const { textDocument, contentChanges } = (params ?? {}) as { textDocument?: { uri?: unknown; version?: unknown }; contentChanges?: unknown };
  const uri = textDocument?.uri;
  if (typeof uri !== 'string') return { kind: 'other' };
  if (method !== 'textDocument/didChange' || typeof textDocument?.version !== 'number' || !Array.isArray(contentChanges) || contentChanges.length === 0) return { kind: 'buffer', uri };
  const full = contentChanges.every((c: unknown) => {
    const change = c as { text?: unknown; range?: unknown; rangeLength?: unknown } | null;
    return change !== null && typeof change === 'object' && typeof change.text === 'string' && change.range === undefined && change.rangeLength === undefined;
  });
  if (full) return { kind: 'full', uri };
  const ranges = contentChanges.every((c: unknown) => {
    const change = c as { text?: unknown; range?: unknown } | null;
    return change !== null && typeof change === 'object' && typeof change.text === 'string' && change.range !== null && typeof change.range === 'object';
  });
  return ranges ? { kind: 'range', uri } : { kind: 'buffer', uri };
}

/**
 * The edits the reader has delivered and the connection has not handled yet that a full-text edit
 * of their buffer would replace: {@link arrived} is told of each message as it is read, in order,
 * and drops the pending edits a new full-text one replaces; {@link handling} is asked before the
 * connection handles a message whether to handle it at all.
 */
export class PendingFullChanges {
  /**
   * Per buffer (by URI), its edits not handled yet, in order, since the last message that could
   * see them: at most one full-text edit (the first), then range edits applied on top of it.
   */
  private readonly pending = new Map<string, Message[]>();
  /** Edits dropped and not yet reached by the connection (it skips them). */
  private readonly dropped = new WeakSet<Message>();

  /** Takes the next message read: a full-text edit replaces its buffer's pending edits, which are dropped; a range edit joins them; others end what they could see. */
  arrived(message: Message): void {
    const shape = shapeOf(message);
    if (shape.kind === 'other') {
      this.pending.clear();
      return;
    }
    if (shape.kind === 'buffer') {
      this.pending.delete(shape.uri);
      return;
    }
    if (shape.kind === 'range') {
      const before = this.pending.get(shape.uri);
      if (before !== undefined) before.push(message);
      else this.pending.set(shape.uri, [message]);
      return;
    }
    for (const before of this.pending.get(shape.uri) ?? []) {
      this.dropped.add(before);
      // The text goes now: the message itself stays in the connection's queue until its turn.
      (before as unknown as { params: { contentChanges: unknown[] } }).params.contentChanges = [];
    }
    this.pending.set(shape.uri, [message]);
  }

  /** Whether the connection is to handle `message` (false: a dropped edit); from now on it cannot be dropped. */
  handling(message: Message): boolean {
    if (this.dropped.has(message)) {
      this.dropped.delete(message);
      return false;
    }
    const shape = shapeOf(message);
    if (shape.kind === 'full' || shape.kind === 'range') {
      // Handled in order: it, and the buffer's edits before it, can no longer be dropped.
      const edits = this.pending.get(shape.uri);
      const at = edits?.indexOf(message) ?? -1;
      if (edits !== undefined && at >= 0) {
        edits.splice(0, at + 1);
        if (edits.length === 0) this.pending.delete(shape.uri);
      }
    }
    return true;
  }
}
