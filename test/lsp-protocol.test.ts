/**
 * The language server's protocol handling over stdio, frame by frame (`docdrift lsp --stdio`, the
 * bundled bin: needs `npm run build`): the lifecycle around `initialize` (#33 s49 sweep L2) and
 * messages whose JSON would cost far more memory than its text (L5).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkMessageShape, MAX_MESSAGE_DEPTH, MAX_MESSAGE_VALUES, MessageShapeError } from '../src/lsp/message-bounds.js';
import { CLI_BIN, copyToTemp, removeTempDirs } from './helpers.js';

const BAD_BASE = path.resolve(import.meta.dirname, '../fixtures/bad-input/_base');

interface Received {
  id?: number | string | null;
  method?: string;
  params?: { uri?: string; diagnostics?: { code?: unknown }[]; message?: string };
  result?: unknown;
  error?: { code: number; message: string };
}

/** A server on a copy of the bad-input base project, written to frame by frame, its messages gathered. */
function rawServer(heapMb?: number): { root: string; uri: (file: string) => string; child: ChildProcessWithoutNullStreams; frame: (text: string) => void; send: (message: object) => void; received: Received[]; until: (test: (m: Received) => boolean, ms?: number) => Promise<Received | undefined>; stop: () => Promise<number | null> } {
  const root = copyToTemp(BAD_BASE);
  const env = heapMb === undefined ? process.env : { ...process.env, DOCDRIFT_TEST_LSP_HEAP_MB: String(heapMb) };
  const child = spawn(process.execPath, [CLI_BIN, 'lsp', '--stdio'], { cwd: root, stdio: 'pipe', env });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  child.stdin.on('error', () => undefined);
  const received: Received[] = [];
  let buffered = Buffer.alloc(0);
  child.stdout.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    for (;;) {
      const end = buffered.indexOf('\r\n\r\n');
      if (end === -1) return;
      const length = Number(/Content-Length: (\d+)/i.exec(buffered.toString('ascii', 0, end))![1]);
      if (buffered.length < end + 4 + length) return;
      received.push(JSON.parse(buffered.toString('utf8', end + 4, end + 4 + length)) as Received);
      buffered = buffered.subarray(end + 4 + length);
    }
  });
  const frame = (text: string): void => {
    child.stdin.write(`Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
  };
  const until = async (test: (m: Received) => boolean, ms = 60_000): Promise<Received | undefined> => {
    for (const stop = Date.now() + ms; Date.now() < stop && child.exitCode === null; await sleep(50)) {
      const found = received.find(test);
      if (found) return found;
    }
    return received.find(test);
  };
  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null) {
      frame(JSON.stringify({ jsonrpc: '2.0', id: 'shutdown', method: 'shutdown' }));
      await until((m) => m.id === 'shutdown', 20_000);
      frame(JSON.stringify({ jsonrpc: '2.0', method: 'exit' }));
      child.stdin.end();
    }
    return exited;
  };
  return { root, uri: (file) => pathToFileURL(path.join(root, file)).href, child, frame, send: (message) => frame(JSON.stringify({ jsonrpc: '2.0', ...message })), received, until, stop };
}

/** A page whose `tool +sed=1` names a parameter `tool` does not have (one `example-param-unknown`). */
const STALE_PAGE = '# p\n\nRun `tool`.\n\n```bash\ntool +sed=1\n```\n';

afterAll(() => removeTempDirs());

describe('the lifecycle around initialize (#33 s49 sweep L2)', () => {
  it('answers a second initialize with InvalidRequest and keeps its root: the open page gets its diagnostics', async () => {
    const s = rawServer();
    s.send({ id: 1, method: 'initialize', params: { processId: null, rootUri: pathToFileURL(s.root).href, capabilities: {} } });
    // A buggy or hostile client re-roots at `/`: the old server walked `/` and never linted the page.
    s.send({ id: 'again', method: 'initialize', params: { processId: null, rootUri: 'file:///', capabilities: {} } });
    s.send({ method: 'initialized', params: {} });
    s.send({ method: 'textDocument/didOpen', params: { textDocument: { uri: s.uri('docs/page.md'), languageId: 'markdown', version: 1, text: STALE_PAGE } } });
    const first = await s.until((m) => m.id === 1);
    expect(first?.result).toMatchObject({ serverInfo: { name: 'docdrift' } });
    const again = await s.until((m) => m.id === 'again');
    expect(again?.error?.code).toBe(-32600);
    expect(again?.error?.message).toMatch(/may only be sent once/);
    const published = await s.until((m) => m.method === 'textDocument/publishDiagnostics' && m.params?.uri === s.uri('docs/page.md'));
    expect(published?.params?.diagnostics?.map((d) => d.code)).toEqual(['example-param-unknown']);
    expect(s.received.filter((m) => m.method === 'window/showMessage')).toEqual([]);
    expect(await s.stop()).toBe(0);
  }, 90_000);

  it('answers a request before initialize with ServerNotInitialized (-32002), drops a notification, then initializes as usual', async () => {
    const s = rawServer();
    s.send({ id: 'early', method: 'textDocument/hover', params: { textDocument: { uri: s.uri('README.md') }, position: { line: 0, character: 0 } } });
    s.send({ method: 'textDocument/didOpen', params: { textDocument: { uri: s.uri('docs/early.md'), languageId: 'markdown', version: 1, text: STALE_PAGE } } });
    const early = await s.until((m) => m.id === 'early');
    expect(early?.result).toBeUndefined();
    expect(early?.error?.code).toBe(-32002);
    s.send({ id: 1, method: 'initialize', params: { processId: null, rootUri: pathToFileURL(s.root).href, capabilities: {} } });
    s.send({ method: 'initialized', params: {} });
    s.send({ method: 'textDocument/didOpen', params: { textDocument: { uri: s.uri('docs/page.md'), languageId: 'markdown', version: 1, text: STALE_PAGE } } });
    expect((await s.until((m) => m.id === 1))?.result).toMatchObject({ capabilities: { hoverProvider: true } });
    const published = await s.until((m) => m.method === 'textDocument/publishDiagnostics' && m.params?.uri === s.uri('docs/page.md'));
    expect(published?.params?.diagnostics?.map((d) => d.code)).toEqual(['example-param-unknown']);
    // The open before initialize was dropped: the server holds no such buffer, and published nothing for it.
    expect(s.received.some((m) => m.params?.uri === s.uri('docs/early.md'))).toBe(false);
    expect(await s.stop()).toBe(0);
  }, 90_000);
});

describe('messages of many small JSON values (#33 s49 sweep L5)', () => {
  // Under a 48 MB heap (the old server parsed these whole: 2,000,000 nested `[` peaked at 388 MB,
  // 3,000,000 `{}` at 446 MB, and ended a server under this heap).
  it.each([
    ['2,000,000 nested arrays (4 MB)', '['.repeat(2_000_000) + ']'.repeat(2_000_000), /more than 1000 levels deep/],
    ['an array of 3,000,000 empty objects (9 MB)', `[${'{},'.repeat(3_000_000)}{}]`, /more than 1,000,000 JSON values/],
  ])('drops a request whose params are %s unparsed, answers it with an error and the next request as usual', async (_name, params, reason) => {
    const s = rawServer(48);
    s.send({ id: 1, method: 'initialize', params: { processId: null, rootUri: pathToFileURL(s.root).href, capabilities: {} } });
    s.send({ method: 'initialized', params: {} });
    await s.until((m) => m.id === 1);
    s.frame(`{"jsonrpc":"2.0","id":"big","method":"textDocument/hover","params":${params}}`);
    s.send({ id: 'after', method: 'textDocument/hover', params: { textDocument: { uri: s.uri('README.md') }, position: { line: 0, character: 0 } } });
    const big = await s.until((m) => m.id === 'big');
    expect(big?.error?.code).toBe(-32600);
    expect(big?.error?.message).toMatch(reason);
    expect(await s.until((m) => m.id === 'after')).toHaveProperty('result');
    const logs = s.received.filter((m) => m.method === 'window/logMessage' && m.params?.message?.includes('dropped a message'));
    expect(logs.length).toBe(1);
    expect(logs[0]!.params!.message).toMatch(reason);
    expect(await s.stop()).toBe(0);
  }, 90_000);
});

describe('checkMessageShape', () => {
  const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');
  const problem = (text: string): MessageShapeError | undefined => {
    try {
      checkMessageShape(bytes(text));
      return undefined;
    } catch (error) {
      return error as MessageShapeError;
    }
  };

  it('passes a didChange of 99,000 range edits (10 values each; keys are not counted) and a long text as one value', () => {
    const change = '{"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":3}},"rangeLength":1,"text":"x"}';
    expect(problem(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///a.md","version":2},"contentChanges":[${Array(99_000).fill(change).join(',')}]}}`)).toBeUndefined();
    expect(problem(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.md","languageId":"markdown","version":1,"text":${JSON.stringify('[{"a\\\\":1},'.repeat(1_000_000))}}}}`)).toBeUndefined();
  });

  it('counts values up to the bound exactly, and depth up to its bound', () => {
    // The outer object, params and the array: 3 values, then n numbers.
    const numbers = (n: number): string => `{"jsonrpc":"2.0","params":[${Array(n).fill('-1.5e3').join(',')}]}`;
    expect(problem(numbers(MAX_MESSAGE_VALUES - 3))).toBeUndefined();
    expect(problem(numbers(MAX_MESSAGE_VALUES - 2))?.message).toMatch(/more than 1,000,000 JSON values/);
    const nested = (n: number): string => `{"params":${'['.repeat(n - 1)}${']'.repeat(n - 1)}}`;
    expect(problem(nested(MAX_MESSAGE_DEPTH))).toBeUndefined();
    expect(problem(nested(MAX_MESSAGE_DEPTH + 1))?.message).toMatch(/more than 1000 levels deep/);
  });

  it('reads the top-level id, wherever it comes, and only the top-level one', () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    expect(problem(`{"jsonrpc":"2.0","id":7,"method":"x","params":${deep}}`)?.id).toBe(7);
    expect(problem(`{"params":${deep},"method":"x","id" : "a\\"b"}`)?.id).toBe('a"b');
    expect(problem(`{"method":"id","params":{"id":3,"x":${deep}}}`)?.id).toBeUndefined();
    expect(problem(`{"id":{"x":1},"params":${deep}}`)?.id).toBeUndefined();
  });
});
