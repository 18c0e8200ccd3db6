/**
 * Writing a pretty-printed JSON document whose one large array is serialised element by element,
 * so a report of many findings never exists as one object tree nor as one string (#33 s31 D6:
 * 72,000 findings made a 100 MB SARIF string after a 150 MB object tree; peak 665 MB).
 */

/** Receives the report's text in order, piece by piece; the pieces joined are the whole report. */
export type ReportSink = (chunk: string) => void;

/**
 * What stands for the streamed array in the skeleton: a string JSON.stringify writes as is
 * (no character to escape), which no report value can equal, as it is replaced before writing.
 */
const PLACEHOLDER = '@@docdrift-streamed-array@@';

/**
 * Writes `JSON.stringify(document, null, 2) + '\n'` to `sink`, byte for byte, where `document` is
 * `skeleton` with the value at `at` (a path of keys and indices; the value there is ignored) being
 * the array of `items` mapped by `toValue`. Only one element is serialised at a time: it is
 * stringified on its own and re-indented to its depth (JSON.stringify indents a nested value by
 * its depth only, and a serialised string holds no line feed, so this is exact).
 *
 * @param skeleton the document with any value (conventionally `[]`) at `at`; not modified.
 * @param at the keys and indices leading to the array, e.g. `['runs', 0, 'results']`.
 * @param count how many elements; `toValue(i)` for `i` in `0 … count - 1` gives each.
 * @throws whatever `sink` throws (a write error), or an Error when `at` names no value.
 */
export function streamJsonDocument(sink: ReportSink, skeleton: unknown, at: readonly (string | number)[], count: number, toValue: (index: number) => unknown): void {
  const doc = withPlaceholder(skeleton, at);
  const text = JSON.stringify(doc, null, 2);
  const marker = `"${PLACEHOLDER}"`;
  const cut = text.indexOf(marker);
  if (cut < 0 || text.indexOf(marker, cut + 1) >= 0) throw new Error('streamJsonDocument: the streamed array is not in the document');
  const lineStart = text.lastIndexOf('\n', cut) + 1;
  const keyIndent = /^ */.exec(text.slice(lineStart, cut))![0];
  const itemIndent = `${keyIndent}  `;
  const buffered = bufferedSink(sink);
  buffered.write(text.slice(0, cut));
  if (count === 0) buffered.write('[]');
  else {
    buffered.write('[\n');
    for (let i = 0; i < count; i++) {
      const item = JSON.stringify(toValue(i), null, 2);
      buffered.write(`${i > 0 ? ',\n' : ''}${itemIndent}${item.replace(/\n/g, `\n${itemIndent}`)}`);
    }
    buffered.write(`\n${keyIndent}]`);
  }
  buffered.write(`${text.slice(cut + marker.length)}\n`);
  buffered.flush();
}

/** A copy of `value` along `at` (other branches shared) with the placeholder at the end of the path. */
function withPlaceholder(value: unknown, at: readonly (string | number)[]): unknown {
  if (at.length === 0) return PLACEHOLDER;
  const [key, ...rest] = at;
  if (value === null || typeof value !== 'object' || !(key! in value)) throw new Error('streamJsonDocument: the streamed array is not in the document');
  const copy = (Array.isArray(value) ? [...(value as unknown[])] : { ...value }) as Record<string | number, unknown>;
  copy[key!] = withPlaceholder(copy[key!], rest);
  return copy;
}

/** Pieces below this many UTF-16 code units are gathered before they reach the sink (fewer write calls). */
const SINK_CHUNK = 1 << 20;

function bufferedSink(sink: ReportSink): { write: (s: string) => void; flush: () => void } {
  let parts: string[] = [];
  let size = 0;
  const flush = (): void => {
    if (parts.length === 0) return;
    const chunk = parts.join('');
    parts = [];
    size = 0;
    sink(chunk);
  };
  return {
    write(s) {
      parts.push(s);
      size += s.length;
      if (size >= SINK_CHUNK) flush();
    },
    flush,
  };
}
