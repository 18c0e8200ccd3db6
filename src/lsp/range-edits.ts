/**
 * Range edits under the language server's size caps (#33 s47 sweep K2): the server announces
 * full-text sync, but a client that ignores it sends range edits, which vscode-languageserver's
 * `TextDocument.update` applies by concatenation, with no bound. Three buffers grown by 8 MB range
 * inserts to 96 MB each stopped the server at its heap limit (exit 1 or 134), while a page that
 * arrives whole over the same limits is held as a marker (src/lsp/big-text.ts) and reported.
 *
 * {@link CappedEdits.update} (the server's `TextDocuments` update) works out the length of the text
 * an edit gives before it builds it:
 *
 * - within the limits, the edit is applied as `TextDocument.update` applies it;
 * - a page (src/lsp/big-text.ts `LARGE_PAGE_RE`) past the document limit (`MAX_DOCUMENT_LENGTH`,
 *   1 Mi UTF-16 code units) but within the read cap is built once and held as a page arriving whole
 *   is (`hold`: its marker, and under it what a lint's verdict reads, src/engine/held-pages.ts);
 * - any buffer past the read cap (`MAX_READ_BYTES`, 64 MB of UTF-8) is never built: it becomes the
 *   marker of a text over the cap (size and sha1, computed from the pieces), reported `EFBIG` as
 *   the CLI reports such a file.
 *
 * A range edit of a buffer held as a marker gives a text the server cannot know, with one
 * exception: an edit whose range covers the whole held text (from 0:0 to its end or past it) gives
 * the edit's text, judged anew. For that the server keeps the end position of each held text
 * ({@link CappedEdits.ends}), and moves it with every range edit of the marker. Any other range
 * edit of a held buffer turns it into an {@link editedMarker}, reported as edited by range past the
 * limit ("close and reopen it") from that edit on (s47 sweep J9: the first such edit of a page
 * opened at 3 MB still said "it is 3.0 MB").
 */
import type { Position, TextDocumentContentChangeEvent } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { MAX_DOCUMENT_LENGTH } from '../docs/limits.js';
import { MAX_READ_BYTES } from '../shared/read-file.js';
import { editedMarker, editedMarkerBytes, LARGE_PAGE_RE, omittedMarker, readOmitted, textSha1, withoutQuery } from './big-text.js';

/**
 * The position just past the end of `text` (LSP line breaks: `\n`, `\r\n`, `\r`; characters in
 * UTF-16 code units). One pass over the text.
 */
export function textEnd(text: string): Position {
  let line = 0;
  let lineStart = 0;
  if (!text.includes('\r')) {
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
      line++;
      lineStart = at + 1;
    }
    return { line, character: text.length - lineStart };
  }
  for (let at = 0; at < text.length; at++) {
    const c = text.charCodeAt(at);
    if (c === 13) {
      if (text.charCodeAt(at + 1) === 10) at++;
    } else if (c !== 10) continue;
    line++;
    lineStart = at + 1;
  }
  return { line, character: text.length - lineStart };
}

/** Where `text` ends when it is written at `from`. */
function advance(from: Position, text: string): Position {
  const end = textEnd(text);
  return end.line === 0 ? { line: from.line, character: from.character + end.character } : { line: from.line + end.line, character: end.character };
}

/** Whether `a` comes before `b`. */
function before(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

/** A position a client sent: two non-negative integers (anything else is not a position). */
function isPosition(p: unknown): p is Position {
  const { line, character } = (p ?? {}) as { line?: unknown; character?: unknown };
  return Number.isInteger(line) && Number.isInteger(character) && (line as number) >= 0 && (character as number) >= 0;
}

/**
 * The end of a held text whose end was `end` after the range `[start, stop]` (well formed, both
 * within it) is replaced by `text`. A start character past the end of its line (which
 * `TextDocument` would cut to the line's end) is taken as given: the server does not know the line.
 */
function endAfterEdit(end: Position, start: Position, stop: Position, text: string): Position {
  if (stop.line < end.line) {
    const inserted = textEnd(text);
    return { line: end.line - (stop.line - start.line) + inserted.line, character: end.character };
  }
  const tail = end.character - stop.character;
  const after = advance(start, text);
  return { line: after.line, character: after.character + tail };
}

/** The server's side of {@link CappedEdits}: its nonce and how it holds a large page. */
export interface CappedEditsHost {
  /** The server's nonce (src/lsp/big-text.ts markers). */
  nonce: string;
  /**
   * The text the server keeps of the text `text` of the buffer `uri`: `text` itself, or for a
   * page over the document limit its marker (the server's `holdLargePage`, which calls
   * {@link CappedEdits.held} for it).
   */
  hold(uri: string, text: string): string;
}

/** Range edits applied under the server's size caps (see the module comment). */
export class CappedEdits {
  /**
   * The end position of each held text, by `${uri}\n${marker}` (as the server's held records);
   * a marker with none (a text over the read cap that arrived whole, never decoded) is replaced
   * whole by no range edit.
   */
  readonly ends = new Map<string, Position>();
  /** Range edits made to held buffers, over the server's life (each such buffer's marker names its count, so that each edit is a new text). */
  private edits = 0;

  constructor(private readonly host: CappedEditsHost) {}

  /** Records the end of `text`, held as `marker` for `uri` (the server's `holdLargePage`). */
  held(uri: string, marker: string, text: string): void {
    this.ends.set(`${uri}\n${marker}`, textEnd(text));
  }

  /** Drops the ends of held texts no key of `kept` (`${uri}\n${marker}`) names. */
  keepOnly(kept: ReadonlySet<string>): void {
    for (const key of this.ends.keys()) if (!kept.has(key)) this.ends.delete(key);
  }

  /**
   * `TextDocument.update` under the caps (the `update` of the server's `TextDocuments`): applies
   * `changes` in order to `document` and returns the document that holds the result (the same
   * one, changed, or a new one holding a marker). A full-text change's text is the server's
   * already (held on arrival).
   */
  update(document: TextDocument, changes: TextDocumentContentChangeEvent[], version: number): TextDocument {
    let doc = document;
    for (const change of changes) {
      if (!('range' in change) || change.range === undefined) {
        doc = TextDocument.update(doc, [change], version);
        continue;
      }
      doc = this.rangeEdit(doc, change, version);
    }
    return doc;
  }

  /** One range edit of `doc`; see the module comment. */
  private rangeEdit(doc: TextDocument, change: { range: { start: Position; end: Position }; text: string }, version: number): TextDocument {
    const { nonce } = this.host;
    const text = doc.getText();
    const uri = doc.uri;
    const inserted = change.text;
    const insertedOmitted = readOmitted(inserted, nonce);
    const over = insertedOmitted !== undefined && insertedOmitted !== 'edited' ? insertedOmitted : undefined;
    const current = readOmitted(text, nonce);
    if (current !== undefined) return this.heldEdit(doc, text, current, change, over, version);
    const page = LARGE_PAGE_RE.test(withoutQuery(uri));
    let { start, end } = change.range;
    if (!isPosition(start) || !isPosition(end)) return TextDocument.update(doc, [change], version);
    if (before(end, start)) [start, end] = [end, start];
    const from = doc.offsetAt(start);
    const to = doc.offsetAt(end);
    const length = text.length - (to - from) + inserted.length;
    // A code unit is at most 3 bytes of UTF-8: a text of at most a third of the cap in code units is within it.
    if (over === undefined && (page ? length <= MAX_DOCUMENT_LENGTH : length <= MAX_READ_BYTES / 3)) return TextDocument.update(doc, [change], version);
    const bytes = Buffer.byteLength(text.slice(0, from)) + (over?.bytes ?? Buffer.byteLength(inserted)) + Buffer.byteLength(text.slice(to));
    if (over === undefined && bytes <= MAX_READ_BYTES) {
      if (!page) return TextDocument.update(doc, [change], version);
      // Within the read cap: built once and held as a page that arrives whole is.
      return TextDocument.create(uri, doc.languageId, version, this.host.hold(uri, text.slice(0, from) + inserted + text.slice(to)));
    }
    // Past the read cap: never built.
    const marker = omittedMarker(nonce, { bytes, sha1: textSha1(text.slice(0, from), inserted, text.slice(to)) });
    if (over === undefined) this.ends.set(`${uri}\n${marker}`, advance(advance(doc.positionAt(from), inserted), text.slice(to)));
    return TextDocument.create(uri, doc.languageId, version, marker);
  }

  /** A range edit of a buffer held as the marker `text` (`current`: what it reads as). */
  private heldEdit(doc: TextDocument, text: string, current: NonNullable<ReturnType<typeof readOmitted>>, change: { range: { start: Position; end: Position }; text: string }, over: { bytes: number } | undefined, version: number): TextDocument {
    const { uri } = doc;
    const held = this.ends.get(`${uri}\n${text}`);
    this.ends.delete(`${uri}\n${text}`);
    let { start, end } = change.range;
    let ended: Position | undefined;
    if (held !== undefined && isPosition(start) && isPosition(end)) {
      if (before(end, start)) [start, end] = [end, start];
      // Positions past the end stand for the end (as TextDocument reads them).
      if (before(held, end)) end = held;
      if (before(held, start)) start = held;
      // The whole held text replaced: the result is the edit's text, judged as one arriving whole.
      if (start.line === 0 && start.character === 0 && !before(end, held)) return TextDocument.create(uri, doc.languageId, version, over === undefined ? this.host.hold(uri, change.text) : change.text);
      if (over === undefined) ended = endAfterEdit(held, start, end, change.text);
    }
    const before_ = current === 'edited' ? editedMarkerBytes(text, this.host.nonce) : current.bytes;
    const bytes = over !== undefined ? Math.max(over.bytes, before_ ?? 0) : before_;
    const marker = editedMarker(this.host.nonce, bytes, ++this.edits);
    if (ended !== undefined) this.ends.set(`${uri}\n${marker}`, ended);
    return TextDocument.create(uri, doc.languageId, version, marker);
  }
}

