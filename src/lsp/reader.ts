/**
 * The language server's message reader: the client's bytes, framed by their `Content-Length`
 * headers (the base protocol), decoded and handed to the connection as soon as they are pushed,
 * in the same call (#33 s38 sweep D8).
 *
 * vscode-jsonrpc's `StreamMessageReader` decodes a message in a promise, after the turn of the
 * event loop that brought its bytes: a lint, which runs mostly synchronously (documents are
 * parsed in a worker that the lint waits for with `Atomics.wait`), saw no edit until it ended,
 * and went on linting texts already outdated to the end (5 hostile pages edited 60 times: the
 * last version's diagnostics 28-66 s after the last edit). With this reader, the server pulls the
 * bytes that came meanwhile from its thread's port at points inside a lint
 * (`LanguageServerOptions.pollInput` in server.ts) and learns of an edit at once.
 */
import { MAX_READ_BYTES } from '../shared/read-file.js';
import { AbstractMessageReader, type DataCallback, type Disposable, type Message, type MessageReader } from 'vscode-languageserver/node';

/** The end of a message's header part. */
const HEADER_END = Buffer.from('\r\n\r\n', 'latin1');
const CR = 0x0d;

/**
 * The most bytes a header part may have, its final `\r\n\r\n` included: 64 KiB. Clients send a
 * few dozen (vscode-jsonrpc's writer, which VS Code's clients use, writes `Content-Length: N\r\n\r\n`
 * alone; the base protocol's only other field is `Content-Type`); vscode-jsonrpc's reader has no
 * limit, and rescans the bytes from the start on every chunk until the end comes (as this one did:
 * a header of 64 MB that had not ended cost 28 s and 480 MB, #33 s44 sweep G1). 64 KiB is more than
 * HTTP servers take for a request's whole header (Node's `http`: 16 KiB). A longer part is
 * reported once and skipped to its end without its bytes being held.
 */
export const MAX_HEADER_BYTES = 64 * 1024;

/**
 * The most bytes a message body may have: 128 MiB, twice the most the server reads of a text
 * ({@link MAX_READ_BYTES}), so that a text at that cap fits with room for JSON escapes, and a
 * larger text up to it still reaches the server, which holds it as a marker (src/lsp/big-text.ts).
 * Was 512 MiB (eight times, for a text of nothing but `\u0000` escapes): one 480 MB message then
 * peaked at 1.07 GB (the chunks, their concatenation, the parse: about 2.2 times the body; s46
 * sweep H13), past the 512 MB bound; a body of 128 MiB peaks near 370 MB. A frame with a longer
 * `Content-Length` is reported and its body skipped as it comes, unheld; the frames after it are
 * read as usual, and the document is read from disk as the CLI reads it.
 */
export const MAX_MESSAGE_BYTES = 2 * MAX_READ_BYTES;

/** A `Content-Length` value: decimal digits (the base protocol's `number`), spaces or tabs around them. */
const CONTENT_LENGTH_VALUE = /^[ \t]*(\d+)[ \t]*$/;

/** A problem {@link ChunkMessageReader} reports through `onError` with the message still read (not dropped). */
export class ReaderWarning extends Error {
  override name = 'ReaderWarning';
}

/** `text` for an error message: at most 100 characters, and said to be cut when it is. */
const quote = (text: string): string => (text.length > 100 ? `${text.slice(0, 100)}… (${text.length} characters)` : text);

/**
 * What the header lines `header` (a header part without its final `\r\n\r\n`, in ASCII) say:
 * the body's length, or what is wrong with them (a line without `:`, no `Content-Length`, one that
 * is not a non-negative decimal integer, or one over {@link MAX_MESSAGE_BYTES}; the length is then
 * given too, for the body to be skipped). The last `Content-Length` counts, as in vscode-jsonrpc;
 * several that differ are said in `warning` (the frame is still read with the last: HTTP calls
 * differing values an unrecoverable framing error, RFC 9112 section 6.3, and no choice here can
 * be known to keep the framing, so the client is told rather than left to guess).
 */
function parseHeader(header: string): { length?: number; problem?: string; warning?: string } {
  let contentLength: string | undefined;
  const values: string[] = [];
  for (const line of header.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon === -1) return { problem: `Message header must separate key and value using ':'\n${quote(line)}` };
    if (line.slice(0, colon).trim().toLowerCase() === 'content-length') {
      contentLength = line.slice(colon + 1);
      if (values.length < 10) values.push(contentLength.trim());
    }
  }
  if (contentLength === undefined) return { problem: 'Header must provide a Content-Length property.' };
  // Not `parseInt`: it read `-5` as -5, which tore the framing for the rest of the session, and `5abc` as 5 (G2).
  const digits = CONTENT_LENGTH_VALUE.exec(contentLength)?.[1];
  if (digits === undefined) return { problem: `Content-Length value must be a non-negative decimal integer. Got ${quote(contentLength.trim())}` };
  const length = Number(digits);
  if (length > MAX_MESSAGE_BYTES) return { length, problem: `Content-Length ${digits} is over the ${MAX_MESSAGE_BYTES} bytes a message may have: its body is skipped` };
  if (new Set(values).size > 1) return { length, warning: `Message header gives Content-Length more than once with different values (${values.map((v) => quote(v)).join(', ')}): the last one, ${digits}, is used; the messages after this one may be misread` };
  return { length };
}

/**
 * A {@link MessageReader} fed by {@link push}: every message whose bytes are complete is decoded
 * and delivered before `push` returns (to the listener, or kept until one listens).
 *
 * A frame whose header is malformed (a line without `:`, no `Content-Length`, one that is not a
 * non-negative decimal integer) is reported through `onError` and its header part skipped; one
 * whose length is over {@link MAX_MESSAGE_BYTES} is reported and its body skipped too; a header
 * part over {@link MAX_HEADER_BYTES} is reported once and skipped to its end, with the body its
 * first {@link MAX_HEADER_BYTES} bytes give the length of, if they do. The work per byte is
 * constant: a header's end is looked for in the new bytes only.
 */
export class ChunkMessageReader extends AbstractMessageReader implements MessageReader {
  /** Bytes received and not yet framed, in order. */
  private chunks: Buffer[] = [];
  /** Their total length. */
  private length = 0;
  /** The body length of the message whose header was read, or -1 while a header is awaited. */
  private bodyLength = -1;
  /** While a header is awaited: the number of the chunks searched for its end. */
  private scannedChunks = 0;
  /** Their bytes. */
  private scannedBytes = 0;
  /** How many bytes of `\r\n\r\n` the bytes searched end with (0-3): the rest may come in the next chunk. */
  private partialEnd = 0;
  /**
   * Set while a header part over {@link MAX_HEADER_BYTES} is skipped to its end (already reported):
   * the length of the body to skip after it, 0 when its first bytes gave none.
   */
  private overlongHeader: { bodyLength: number } | undefined;
  /** Bytes still to skip of a reported frame's body. */
  private skip = 0;
  private callback: DataCallback | undefined;
  /** Messages decoded before anyone listened. */
  private early: Message[] = [];

  /**
   * @param decode turns a body (UTF-8 JSON) into a message; may throw (the error is reported
   *   through `onError`, and the message dropped, as vscode-jsonrpc does). It may change the bytes.
   * @param observe told of each message before it is delivered (the server's check for edits
   *   during a lint); must not throw.
   */
  constructor(
    private readonly decode: (body: Uint8Array) => unknown,
    private readonly observe?: (message: Message) => void,
  ) {
    super();
  }

  /** Delivers each message to `callback` from now on, first those that came before (the connection's `listen`). */
  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    for (const message of this.early.splice(0)) callback(message);
    return { dispose: () => (this.callback = undefined) };
  }

  /** Takes the client's next bytes; delivers every message they complete, in order. */
  push(chunk: Uint8Array): void {
    if (chunk.byteLength === 0) return;
    this.chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    this.length += chunk.byteLength;
    for (;;) {
      if (this.bodyLength < 0 && !this.readHeader()) return;
      if (this.length < this.bodyLength) return;
      const body = this.take(this.bodyLength);
      this.bodyLength = -1;
      let message: Message;
      try {
        message = this.decode(body) as Message;
      } catch (error) {
        this.fireError(error);
        continue;
      }
      // A body that is valid JSON but no object (`null`, `42`, `"x"`, `true`) is no message: the
      // server's observers read its fields and `null` has none (#33 s45 sweep G3: `null` ended the
      // server with an internal error). An array (a JSON-RPC batch, which LSP does not use) goes on
      // to vscode-jsonrpc, which logs it as neither a request nor a notification.
      if (message === null || typeof message !== 'object') {
        this.fireError(new Error(`its body is ${message === null ? 'null' : `a JSON ${typeof message}`}, not a JSON object`));
        continue;
      }
      this.observe?.(message);
      if (this.callback) this.callback(message);
      else this.early.push(message);
    }
  }

  /** The client's input ended: what is left is an unfinished message, dropped. */
  end(): void {
    this.chunks = [];
    this.length = 0;
    this.restartSearch();
    this.overlongHeader = undefined;
    this.skip = 0;
    this.fireClose();
  }

  /**
   * Reads a header part if its end has come (`bodyLength` is then set; a malformed part is
   * reported and skipped, see the class comment). False while it has not.
   */
  private readHeader(): boolean {
    for (;;) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, this.length);
        this.drop(n);
        this.skip -= n;
        if (this.skip > 0) return false;
      }
      if (this.length === 0) return false;
      const end = this.findHeaderEnd();
      if (this.overlongHeader) {
        // Skipping an overlong header part: nothing of it is kept.
        if (end === -1) {
          this.drop(this.length);
          this.scannedChunks = 0;
          this.scannedBytes = 0;
          return false;
        }
        this.drop(end);
        this.restartSearch();
        this.skip = this.overlongHeader.bodyLength;
        this.overlongHeader = undefined;
        continue;
      }
      if (end === -1 && this.scannedBytes < MAX_HEADER_BYTES) return false;
      if (end === -1 || end > MAX_HEADER_BYTES) {
        // Over the cap: reported now, once, with the length its first bytes' whole lines give, if they do.
        const first = this.chunks[0]!.length >= MAX_HEADER_BYTES ? this.chunks[0]!.subarray(0, MAX_HEADER_BYTES) : Buffer.concat(this.chunks, MAX_HEADER_BYTES);
        const lines = first.lastIndexOf('\r\n');
        const { length } = lines === -1 ? {} : parseHeader(first.toString('ascii', 0, lines));
        const bodyLength = length ?? 0;
        this.fireError(new Error(`Message header part is over ${MAX_HEADER_BYTES} bytes (a client sends a few dozen): skipped to its end${bodyLength > 0 ? `, with its body of ${bodyLength} bytes` : ''}`));
        if (end === -1) {
          this.overlongHeader = { bodyLength };
          continue;
        }
        this.drop(end);
        this.restartSearch();
        this.skip = bodyLength;
        continue;
      }
      const header = this.take(end).toString('ascii', 0, end - HEADER_END.length);
      this.restartSearch();
      const { length, problem, warning } = parseHeader(header);
      if (problem === undefined) {
        if (warning !== undefined) this.fireError(new ReaderWarning(warning));
        this.bodyLength = length!;
        return true;
      }
      this.fireError(new Error(problem));
      // A length over the cap is known: its body is skipped, and the next frame read.
      this.skip = length ?? 0;
    }
  }

  /**
   * The length of the header part that starts the bytes (its `\r\n\r\n` included), or -1 while
   * its end has not come. Searches only the chunks not yet searched, minding an end split across
   * chunks.
   */
  private findHeaderEnd(): number {
    for (; this.scannedChunks < this.chunks.length; this.scannedChunks++) {
      const chunk = this.chunks[this.scannedChunks]!;
      let at = 0;
      // The end begun in the chunks before, carried on byte by byte (a `\r` begins it anew).
      while (this.partialEnd > 0 && at < chunk.length) {
        const byte = chunk[at++]!;
        if (byte === HEADER_END[this.partialEnd]) {
          if (++this.partialEnd === HEADER_END.length) return this.scannedBytes + at;
        } else this.partialEnd = byte === CR ? 1 : 0;
      }
      if (this.partialEnd === 0 && at < chunk.length) {
        const found = chunk.indexOf(HEADER_END, at);
        if (found !== -1) return this.scannedBytes + found + HEADER_END.length;
        for (let n = HEADER_END.length - 1; n > 0; n--) {
          if (chunk.length - n >= at && chunk.compare(HEADER_END, 0, n, chunk.length - n) === 0) {
            this.partialEnd = n;
            break;
          }
        }
      }
      this.scannedBytes += chunk.length;
    }
    return -1;
  }

  /** The next header's end is searched for from the first byte held. */
  private restartSearch(): void {
    this.scannedChunks = 0;
    this.scannedBytes = 0;
    this.partialEnd = 0;
  }

  /** Drops the next `n` bytes (at most `length`) without copying them. */
  private drop(n: number): void {
    let left = n;
    let i = 0;
    while (left > 0) {
      const chunk = this.chunks[i]!;
      if (chunk.length > left) {
        this.chunks[i] = chunk.subarray(left);
        break;
      }
      left -= chunk.length;
      i++;
    }
    this.chunks.splice(0, i);
    this.length -= n;
  }

  /** The next `n` bytes (at most `length`), removed; one chunk's own bytes when they are all in it. */
  private take(n: number): Buffer {
    // A body of 0 bytes may come with no byte after it (no chunk to cut it from: the server died on it).
    if (n === 0) return Buffer.alloc(0);
    const first = this.chunks[0]!;
    let out: Buffer;
    if (first.length >= n) {
      out = first.subarray(0, n);
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
    } else {
      out = Buffer.allocUnsafe(n);
      let filled = 0;
      let i = 0;
      while (filled < n) {
        const chunk = this.chunks[i]!;
        const part = Math.min(chunk.length, n - filled);
        chunk.copy(out, filled, 0, part);
        filled += part;
        if (part === chunk.length) i++;
        else this.chunks[i] = chunk.subarray(part);
      }
      // The chunks read whole are dropped at once (one by one, a body of many small chunks took quadratic time).
      this.chunks.splice(0, i);
    }
    this.length -= n;
    return out;
  }
}
