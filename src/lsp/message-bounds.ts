/**
 * Bounds on the shape of a client message's JSON, checked by a linear scan of its bytes before it
 * is parsed (#33 s49 sweep L5).
 *
 * The reader caps a message at 128 MiB (src/lsp/reader.ts), but JavaScript values cost 10-30 times
 * their JSON text: one valid message of 5,000,000 nested `[` (10 MB) took the server to 640 MB and
 * ended it at its heap limit, and an array of 10,000,000 `{}` (30 MB) to 1 GB, unanswering;
 * 10,000,000 numbers (40 MB) peaked at 686 MB. A message nested deeper than
 * {@link MAX_MESSAGE_DEPTH} or holding more than {@link MAX_MESSAGE_VALUES} values is dropped
 * unparsed ({@link MessageShapeError}). A text is one string value however long: a `didOpen` of a
 * 60 MB page is three dozen values, and a `didChange` of 100,000 range edits 1,000,000 (10 values an edit): one of 99,000 passes.
 */

/**
 * The deepest a message may nest objects and arrays: 1,000. LSP messages nest a dozen levels (a
 * code action's edit: about 10); 100,000 levels already cost the server 30 MB.
 */
export const MAX_MESSAGE_DEPTH = 1000;

/**
 * The most values (objects, arrays, strings, numbers, `true`, `false`, `null`; object keys are not
 * counted) a message may hold: 1,000,000. Measured on the old server, an array of 1,000,000 `{}`
 * peaked at 205 MB of RSS and 2,000,000 at 293 MB (about 90 bytes a value); 1,000,000 keeps the
 * cost of the largest message within 100 MB of the server's own, with room for a lint running.
 */
export const MAX_MESSAGE_VALUES = 1_000_000;

/** A message body over a {@link MAX_MESSAGE_DEPTH} or {@link MAX_MESSAGE_VALUES} bound: dropped unparsed. */
export class MessageShapeError extends Error {
  override name = 'MessageShapeError';
  /**
   * @param message what is over which bound.
   * @param id the message's top-level `id` when it has one that is a number or a short string
   *   (a request, to be answered with an error); otherwise undefined.
   */
  constructor(
    message: string,
    readonly id?: number | string,
  ) {
    super(message);
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** Whether `byte` is JSON whitespace (space, tab, LF, CR). */
const isSpace = (byte: number): boolean => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

/** Whether `byte` ends a number, `true`, `false` or `null` (a structural byte, a quote or whitespace). */
const endsScalar = (byte: number): boolean => byte === COMMA || byte === CLOSE_BRACE || byte === CLOSE_BRACKET || byte === COLON || byte === QUOTE || byte === OPEN_BRACE || byte === OPEN_BRACKET || isSpace(byte);

/** The index of the quote that closes the JSON string whose opening quote is at `open`, or -1 when none does. */
function closingQuote(bytes: Buffer, open: number): number {
  for (let at = open + 1; ; at++) {
    at = bytes.indexOf(QUOTE, at);
    if (at === -1) return -1;
    let slashes = 0;
    while (bytes[at - 1 - slashes] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return at;
  }
}

/**
 * Checks the JSON message body `body` (UTF-8) against {@link MAX_MESSAGE_DEPTH} and
 * {@link MAX_MESSAGE_VALUES} in one pass over its bytes, holding nothing but counts (a string is
 * skipped with `indexOf`, so a long text costs little). Malformed JSON passes the scan (the parse
 * reports it). Time: linear in the body's length.
 *
 * @throws {MessageShapeError} when a bound is exceeded; its `id` is the body's top-level `id`
 *   when that is a number or a string of at most 200 bytes, found by scanning on to the end.
 */
export function checkMessageShape(body: Uint8Array): void {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  let depth = 0;
  let values = 0;
  let problem: string | undefined;
  let id: number | string | undefined;
  /** The top-level key just read, while its `:` and value are awaited. */
  let topKey: string | undefined;
  /** Whether the next value read is the top-level `id`'s. */
  let idValue = false;
  for (let at = 0; at < bytes.length; at++) {
    const byte = bytes[at]!;
    if (isSpace(byte) || byte === COMMA) continue;
    if (byte === COLON) {
      // The string before it was a key, not a value.
      values--;
      idValue = depth === 1 && topKey === 'id';
      topKey = undefined;
      continue;
    }
    if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--;
      continue;
    }
    const start = at;
    values++;
    if (byte === QUOTE) {
      const close = closingQuote(bytes, at);
      if (close === -1) return;
      at = close;
      if (depth === 1 && close - start <= 201) {
        const text = bytes.toString('utf8', start, close + 1);
        // A key of the top-level object (`"id"`, spelled plainly as every client does), or the id's value.
        if (!idValue) topKey = text === '"id"' ? 'id' : undefined;
      }
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth++;
      if (depth > MAX_MESSAGE_DEPTH && problem === undefined) problem = `it nests objects or arrays more than ${MAX_MESSAGE_DEPTH} levels deep (a client's messages nest a dozen)`;
    } else {
      while (at + 1 < bytes.length && !endsScalar(bytes[at + 1]!)) at++;
    }
    if (idValue) {
      idValue = false;
      if (depth === 1 && at - start < 200) {
        try {
          const value: unknown = JSON.parse(bytes.toString('utf8', start, at + 1));
          if (typeof value === 'number' || typeof value === 'string') id = value;
        } catch {
          // Not a readable id: the message is dropped unanswered.
        }
      }
    }
    if (values > MAX_MESSAGE_VALUES && problem === undefined) problem = `it holds more than ${MAX_MESSAGE_VALUES.toLocaleString('en-US')} JSON values (documents travel as one string value each)`;
    // Once over a bound, the scan goes on only for the top-level id, which may come after the bulk.
    if (problem !== undefined && id !== undefined) break;
  }
  if (problem !== undefined) throw new MessageShapeError(`its JSON (${bytes.length} bytes) was not parsed: ${problem}`, id);
}
