/**
 * The language server's reading of large client messages (#33 s38 sweep D7): a `didOpen` or
 * `didChange` carrying a page of tens of megabytes.
 *
 * vscode-jsonrpc's own decoder turns a message body into one string (the body's size again) and
 * parses it, so the text of a page existed as the body's bytes, the body's string and the parsed
 * text at once; with the chunks the body was gathered from, a 90 MB page took the server to
 * 723 MB of RSS (41 MB: 417-428 MB). {@link parseMessageBody} (the server's reader decodes every
 * message with it, src/lsp/reader.ts) parses a large body with its long string values cut out:
 * each is unescaped in place in the body's own bytes and decoded once, the only copy kept. A value whose text is over {@link MAX_READ_BYTES} in UTF-8, the most a CLI
 * run reads of any file (a larger file is `EFBIG`, unread, whatever it holds), is not decoded at
 * all: the server keeps a short marker with its size and hash instead
 * ({@link omittedMarker}, {@link readOmitted}), and a lint reports the buffer as the CLI reports
 * such a file.
 *
 * A page between the document limit (1 Mi UTF-16 code units, src/docs/limits.ts) and that cap is
 * never parsed, and is not kept whole either (#33 s46 sweep H4: four open pages of 60 MB took the
 * server past its heap limit): the server turns its text into the same kind of marker as it
 * arrives, and keeps what a lint's verdict on it reads (src/engine/held-pages.ts `heldPage`:
 * whether it names a command, its stub, its length) under the marker. See {@link LARGE_PAGE_RE}
 * and `holdLargePage` in src/lsp/server.ts for the edits that follow.
 */
import { createHash } from 'node:crypto';
import { MAX_READ_BYTES } from '../shared/read-file.js';

/**
 * The buffers whose text over the document limit the server keeps as a marker (src/lsp/server.ts
 * `holdLargePage`): the pages discovery and the unsaved-page rule can list, by extension. A large
 * open buffer of another kind (a source, a manifest) is kept whole, as before.
 */
export const LARGE_PAGE_RE = /\.(?:md|markdown|mdx|rst|rest)$/i;

/** Message bodies of at least this many bytes are parsed with their long strings cut out (smaller ones as vscode-jsonrpc does). */
export const LARGE_MESSAGE_BYTES = 1024 * 1024;

/** String values of at least this many bytes (as written, escapes included) in a large body are decoded on their own. */
export const LONG_STRING_BYTES = 64 * 1024;

/** An open buffer the server holds no text of: its size in UTF-8 bytes and the sha1 (hex) of its JSON-escaped bytes. */
export interface OmittedText {
  /** Size of its text in UTF-8 bytes (a lone surrogate counted as U+FFFD, 3 bytes). */
  bytes: number;
  /** sha1 (hex) of the JSON string's bytes as the client wrote them: an identity, not the hash of the file on disk. */
  sha1: string;
}

/** The start of every {@link omittedMarker}; the nonce follows. */
const MARKER_PREFIX = '\u0000docdrift-omitted:';

/**
 * The text a buffer over {@link MAX_READ_BYTES} is held as: a short string naming its size and
 * hash, with the server's nonce (random per server), so that no text a client sends is taken for
 * one.
 */
export function omittedMarker(nonce: string, omitted: OmittedText): string {
  return `${MARKER_PREFIX}${nonce}:${omitted.bytes}:${omitted.sha1}`;
}

/**
 * What a buffer's text `text` is to the server: `undefined` for a real text; the omitted text's
 * size and hash for an {@link omittedMarker} of this server (`nonce`); `'edited'` for a text that
 * holds the marker but is not it (an incremental edit applied to a marker: the server announces
 * full-text sync, so only a client that ignores it sends one), whose real text the server cannot know.
 */
export function readOmitted(text: string, nonce: string): OmittedText | 'edited' | undefined {
  const head = `${MARKER_PREFIX}${nonce}:`;
  // Cheap for a real text: markers are short, and the nonce is in no text a client wrote.
  if (!text.includes(nonce)) return undefined;
  const m = text.startsWith(head) ? /^(\d+):([0-9a-f]{40})$/.exec(text.slice(head.length)) : null;
  return m ? { bytes: Number(m[1]), sha1: m[2]! } : 'edited';
}

/**
 * The UTF-8 size an {@link omittedMarker} of this server (`nonce`) names inside `text`, a text
 * {@link readOmitted} reads as `'edited'` (a range edit applied to a marker); `undefined` when its
 * nonce, size and hash are not found whole (the edit cut into them).
 */
export function editedMarkerBytes(text: string, nonce: string): number | undefined {
  // From the nonce on: an edit at the start of the buffer cuts into the prefix.
  const at = text.indexOf(`${nonce}:`);
  if (at === -1) return undefined;
  const m = /^(\d+):[0-9a-f]{40}/.exec(text.slice(at + nonce.length + 1, at + nonce.length + 1 + 64));
  return m ? Number(m[1]) : undefined;
}

/**
 * sha1 (hex) of the text `parts` joined as UTF-8, equal to `createHash('sha1').update(parts.join(''))`
 * (but for a surrogate pair cut between two parts), hashed in slices of at most 1 Mi code units:
 * Node encodes a string into one temporary buffer of its whole UTF-8 size before hashing it (60 MB
 * for a 60 MB page, counted in the server's peak), and the parts are never joined.
 */
export function textSha1(...parts: string[]): string {
  const hash = createHash('sha1');
  const step = 1024 * 1024;
  for (const text of parts) {
    for (let at = 0; at < text.length; ) {
      let end = Math.min(text.length, at + step);
      // A surrogate pair is never cut: each half alone would be hashed as U+FFFD.
      if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end--;
      hash.update(text.slice(at, end));
      at = end;
    }
  }
  return hash.digest('hex');
}

/**
 * The text of a buffer edited by range after the server stopped holding its text (a marker of
 * this server, `nonce`, edited by range: src/lsp/range-edits.ts): {@link readOmitted} reads it as
 * `'edited'` and {@link editedMarkerBytes} as `bytes`, the size the buffer had when the server
 * last knew it (none: unknown). `edit` (a count) makes each edit a new text.
 */
export function editedMarker(nonce: string, bytes: number | undefined, edit: number): string {
  return bytes === undefined ? `${MARKER_PREFIX}${nonce}:edited:${edit}` : `${MARKER_PREFIX}${nonce}:${bytes}:${'0'.repeat(40)}:edited:${edit}`;
}

/** A URI without its query and fragment (`file:///a.md?x#y` → `file:///a.md`); linear in its length (a `/[?#].*$/` replace is quadratic on many `#`). */
export function withoutQuery(uri: string): string {
  const cut = uri.search(/[?#]/);
  return cut < 0 ? uri : uri.slice(0, cut);
}

/** The byte each JSON escape of one character stands for, by the byte after the backslash; 0 for none. */
const SIMPLE_ESCAPES = new Uint8Array(256);
for (const [after, byte] of [[0x22, 0x22], [0x5c, 0x5c], [0x2f, 0x2f], [0x62, 0x08], [0x66, 0x0c], [0x6e, 0x0a], [0x72, 0x0d], [0x74, 0x09]] as const) SIMPLE_ESCAPES[after] = byte;

/** The value of the hexadecimal digit byte `b`, or -1. */
function hexDigit(b: number | undefined): number {
  if (b === undefined) return -1;
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  const lower = b | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

/** The code unit of the `\uXXXX` escape whose backslash is at `at`; throws on a malformed one. */
function hex4(body: Buffer, at: number, end: number): number {
  if (at + 6 > end) throw new SyntaxError('Bad Unicode escape in JSON');
  const a = hexDigit(body[at + 2]);
  const b = hexDigit(body[at + 3]);
  const c = hexDigit(body[at + 4]);
  const d = hexDigit(body[at + 5]);
  if ((a | b | c | d) < 0) throw new SyntaxError('Bad Unicode escape in JSON');
  return (a << 12) | (b << 8) | (c << 4) | d;
}

/** How far {@link nextSlash} looks byte by byte before it asks `indexOf`. */
const NEAR_BYTES = 32;

/**
 * Where the next backslash of `body[from, end)` is, or `end` when none is. The bytes just ahead are
 * read here and the rest by `indexOf`: in text dense with escapes (a page's newlines, `\n` every
 * few bytes) a native call per escape cost ten times the scan (a 10 MB page: 115 ms a decode).
 */
function nextSlash(body: Buffer, from: number, end: number): number {
  const near = Math.min(end, from + NEAR_BYTES);
  for (let at = from; at < near; at++) if (body[at] === 0x5c) return at;
  if (near === end) return end;
  const at = body.indexOf(0x5c, near);
  return at === -1 || at > end ? end : at;
}

/**
 * Walks the escapes of the JSON string bytes `body[start, end)` (between its quotes). Returns the
 * size of its text in UTF-8 and whether it has a lone surrogate (`\uD800` not followed by a low
 * one, or a low one alone), which UTF-8 cannot hold. Throws on a malformed escape.
 */
function measure(body: Buffer, start: number, end: number): { bytes: number; lone: boolean } {
  let bytes = end - start;
  let lone = false;
  for (let at = nextSlash(body, start, end); at < end; at = nextSlash(body, at, end)) {
    const c = body[at + 1];
    if (c !== undefined && SIMPLE_ESCAPES[c] !== 0) {
      bytes -= 1;
      at += 2;
      continue;
    }
    if (c !== 0x75) throw new SyntaxError('Bad escaped character in JSON');
    const unit = hex4(body, at, end);
    if (unit >= 0xd800 && unit <= 0xdbff && body[at + 6] === 0x5c && body[at + 7] === 0x75) {
      const low = hex4(body, at + 6, end);
      if (low >= 0xdc00 && low <= 0xdfff) {
        bytes -= 12 - 4;
        at += 12;
        continue;
      }
    }
    if (unit >= 0xd800 && unit <= 0xdfff) lone = true;
    bytes -= 6 - (unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3);
    at += 6;
  }
  return { bytes, lone };
}

/**
 * Unescapes the JSON string bytes `body[start, end)` in place (its UTF-8 never takes more bytes
 * than its escapes did) and returns where its text ends. The string has no lone surrogate
 * ({@link measure}).
 */
function unescapeInPlace(body: Buffer, start: number, end: number): number {
  let w = start;
  let r = start;
  while (r < end) {
    const runEnd = nextSlash(body, r, end);
    if (w !== r) {
      // A short run is moved here, a long one by one native call.
      if (runEnd - r <= NEAR_BYTES) for (let i = r; i < runEnd; i++) body[w + i - r] = body[i]!;
      else body.copyWithin(w, r, runEnd);
    }
    w += runEnd - r;
    r = runEnd;
    if (r >= end) break;
    const simple = SIMPLE_ESCAPES[body[r + 1]!]!;
    if (simple !== 0) {
      body[w++] = simple;
      r += 2;
      continue;
    }
    let code = hex4(body, r, end);
    r += 6;
    if (code >= 0xd800 && code <= 0xdbff) {
      code = 0x10000 + ((code - 0xd800) << 10) + (hex4(body, r, end) - 0xdc00);
      r += 6;
    }
    if (code < 0x80) body[w++] = code;
    else if (code < 0x800) {
      body[w++] = 0xc0 | (code >> 6);
      body[w++] = 0x80 | (code & 0x3f);
    } else if (code < 0x10000) {
      body[w++] = 0xe0 | (code >> 12);
      body[w++] = 0x80 | ((code >> 6) & 0x3f);
      body[w++] = 0x80 | (code & 0x3f);
    } else {
      body[w++] = 0xf0 | (code >> 18);
      body[w++] = 0x80 | ((code >> 12) & 0x3f);
      body[w++] = 0x80 | ((code >> 6) & 0x3f);
      body[w++] = 0x80 | (code & 0x3f);
    }
  }
  return w;
}

/**
 * The value of the long JSON string `body[quote, close]` (both quotes included): its text, or
 * the {@link omittedMarker} of a text over {@link MAX_READ_BYTES}. May overwrite those bytes.
 */
function longString(body: Buffer, quote: number, close: number, nonce: string): string {
  const start = quote + 1;
  const { bytes, lone } = measure(body, start, close);
  if (bytes > MAX_READ_BYTES) return omittedMarker(nonce, { bytes, sha1: createHash('sha1').update(body.subarray(start, close)).digest('hex') });
  // UTF-8 has no lone surrogate: such a text (rare) is parsed as JSON.parse would, with a copy.
  if (lone) return JSON.parse(body.toString('utf8', quote, close + 1)) as string;
  return body.toString('utf8', start, unescapeInPlace(body, start, close));
}

/**
 * Parses one JSON message body, `JSON.parse` of its UTF-8 text, but for a body of at least
 * {@link LARGE_MESSAGE_BYTES} without a copy of its long strings (see the module comment): each
 * string of {@link LONG_STRING_BYTES} or more bytes is decoded on its own from the body (which it
 * overwrites), or replaced by its {@link omittedMarker} when its text is over {@link MAX_READ_BYTES}.
 *
 * @param body the message's bytes (UTF-8 JSON); a large body is changed in place.
 * @param nonce the server's nonce, for markers and placeholders no client text can hold.
 * @throws {SyntaxError} on a body that is not JSON (a long string with a malformed escape
 *   included), as `JSON.parse` throws.
 */
export function parseMessageBody(body: Uint8Array, nonce: string): unknown {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (bytes.length < LARGE_MESSAGE_BYTES) return JSON.parse(bytes.toString('utf8'));
  const parts: string[] = [];
  const values: string[] = [];
  const placeholder = `\u0000docdrift-json:${nonce}:`;
  let copied = 0;
  // Outside its strings, JSON holds no `"`: each one found there opens a string.
  for (let at = bytes.indexOf(0x22); at !== -1; ) {
    let close = at + 1;
    for (;;) {
      close = bytes.indexOf(0x22, close);
      if (close === -1) return JSON.parse(bytes.toString('utf8'));
      let slashes = 0;
      while (bytes[close - 1 - slashes] === 0x5c) slashes++;
      if (slashes % 2 === 0) break;
      close++;
    }
    if (close - at - 1 >= LONG_STRING_BYTES) {
      parts.push(bytes.toString('utf8', copied, at), JSON.stringify(`${placeholder}${values.length}`));
      values.push(longString(bytes, at, close, nonce));
      copied = close + 1;
    }
    at = bytes.indexOf(0x22, close + 1);
  }
  if (values.length === 0) return JSON.parse(bytes.toString('utf8'));
  parts.push(bytes.toString('utf8', copied));
  return JSON.parse(parts.join(''), (_key, value: unknown) => (typeof value === 'string' && value.startsWith(placeholder) ? values[Number(value.slice(placeholder.length))] : value));
}
