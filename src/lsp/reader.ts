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
import { AbstractMessageReader, type DataCallback, type Disposable, type Message, type MessageReader } from 'vscode-languageserver/node';

/** The end of a message's header part. */
const HEADER_END = Buffer.from('\r\n\r\n', 'latin1');

/**
 * A {@link MessageReader} fed by {@link push}: every message whose bytes are complete is decoded
 * and delivered before `push` returns (to the listener, or kept until one listens).
 */
export class ChunkMessageReader extends AbstractMessageReader implements MessageReader {
  /** Bytes received and not yet framed, in order. */
  private chunks: Buffer[] = [];
  /** Their total length. */
  private length = 0;
  /** The body length of the message whose header was read, or -1 while a header is awaited. */
  private bodyLength = -1;
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
      this.observe?.(message);
      if (this.callback) this.callback(message);
      else this.early.push(message);
    }
  }

  /** The client's input ended: what is left is an unfinished message, dropped. */
  end(): void {
    this.chunks = [];
    this.length = 0;
    this.fireClose();
  }

  /**
   * Reads a header part if its end has come (`bodyLength` is then set; a part without a
   * `Content-Length` is reported and skipped). False while it has not.
   */
  private readHeader(): boolean {
    for (;;) {
      if (this.length === 0) return false;
      // A header part is short: the bytes before its end are few, joined into one buffer.
      if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks, this.length)];
      const at = this.chunks[0]!.indexOf(HEADER_END);
      if (at === -1) return false;
      const header = this.take(at + HEADER_END.length).toString('ascii', 0, at);
      let contentLength: string | undefined;
      let problem: string | undefined;
      for (const line of header.split('\r\n')) {
        const colon = line.indexOf(':');
        if (colon === -1) {
          problem = `Message header must separate key and value using ':'\n${line}`;
          break;
        }
        if (line.slice(0, colon).trim().toLowerCase() === 'content-length') contentLength = line.slice(colon + 1).trim();
      }
      const length = contentLength === undefined ? Number.NaN : Number.parseInt(contentLength, 10);
      if (problem === undefined && Number.isNaN(length)) problem = contentLength === undefined ? 'Header must provide a Content-Length property.' : `Content-Length value must be a number. Got ${contentLength}`;
      if (problem === undefined) {
        this.bodyLength = length;
        return true;
      }
      this.fireError(new Error(problem));
    }
  }

  /** The next `n` bytes (at most `length`), removed; one chunk's own bytes when they are all in it. */
  private take(n: number): Buffer {
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
