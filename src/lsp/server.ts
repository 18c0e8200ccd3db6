/**
 * `docdrift lsp`: a language server over stdio (issue #36, first slice). It holds the project's
 * config, its discovered files and a per-file cache in memory, lints the project after an edit (at
 * once after a pause in editing, debounced within a burst of edits) with the open buffers' texts as an overlay (an open buffer is never read
 * from disk), and publishes every finding as a diagnostic on its document; a fixable finding gets a
 * quick fix whose edit is the one `--fix` applies, as a versioned edit of the document the lint read.
 *
 * The server only reads the project: it never runs project code (the extractors are static, as in
 * the CLI). Config discovery is the CLI's (`loadConfig` in the workspace root), or the file the
 * client names in `initializationOptions.configFile` (read and checked as the CLI's `--config`,
 * a relative path resolved from the workspace root); a config that does not load is one
 * `window/showMessage` error, and the server waits for it to be fixed.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, lstatSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  CodeActionKind,
  createConnection,
  DidChangeWatchedFilesNotification,
  ErrorCodes,
  MessageType,
  ProposedFeatures,
  ShowMessageNotification,
  StreamMessageWriter,
  TextDocuments,
  TextDocumentSyncKind,
  type CodeAction,
  type Connection,
  type Message,
  type InitializeParams,
  type InitializeResult,
  type ResponseMessage,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { rules } from '../../rules/index.js';
import { CONFIG_FILES, ConfigError, loadConfig, validateRuleOptions } from '../config/load.js';
import type { DocdriftConfig } from '../config/schema.js';
import { BaselineError, finishBaseline, loadBaseline, type LoadedBaseline } from '../engine/baseline.js';
import { DiscoveryLimitError, discoverFiles, docPatternMatcher, type DiscoveredFiles } from '../engine/discover.js';
import { createDocParser, LARGE_DOCUMENT_LENGTH, RUN_LARGE_DOCUMENTS_LENGTH, type DocParser, type ParseOutcome, type ParseWhat } from '../docs/bounded-parse.js';
import { mayHaveDirectives } from '../docs/directive-text.js';
import { FactCache } from '../engine/facts.js';
import { baselineEntryStale, engineRules, engineRuleSeverity } from '../engine/engine-rules.js';
import { hashFiles, inputFiles, openPieceStore, type FileEntry } from '../engine/cache.js';
import { lint, type LintOptions } from '../engine/lint.js';
import type { DriftMessage } from '../model/rule.js';
import { currentDirectory, escapesRoot, isRestructuredText } from '../shared/paths.js';
import { escapeLine } from '../shared/escape.js';
import { VERSION } from '../shared/package-info.js';
import { isDirectory, MAX_READ_BYTES, ReadFileError, readProjectFile, tooLargeError } from '../shared/read-file.js';
import { editedMarkerBytes, LARGE_PAGE_RE, omittedMarker, parseMessageBody, readOmitted, textSha1, withoutQuery } from './big-text.js';
import { heldPage, type HeldPage } from '../engine/held-pages.js';
import type { MentionMatcher } from '../engine/doc-texts.js';
import { MAX_DOCUMENT_LENGTH } from '../docs/limits.js';
import { PendingFullChanges } from './supersede.js';
import { CappedEdits } from './range-edits.js';
import { ChunkMessageReader, ReaderWarning } from './reader.js';
import { InitializeGate } from './lifecycle.js';
import { checkMessageShape, MessageShapeError } from './message-bounds.js';
import { isRunCancelled, RunCancelled } from '../shared/cancelled.js';
import { findingRange, fixTitle, lineStarts, offsetToPosition, rangesTouch, toDiagnostic, toLspPosition } from './convert.js';
import { GenerationalPieceStore, KEPT_DOCUMENT_BYTES } from './pieces.js';
import { hoverMarkdown, paramAt } from './navigate.js';
import type { Model } from '../model/types.js';

/** Milliseconds of quiet after an edit before the project is linted again. */
export const DEBOUNCE_MS = 120;

/** Lints one document worker serves before a fresh one is started (see `parser` in {@link startLanguageServer}). */
export const PARSER_LINTS = 500;

/**
 * Most findings published as diagnostics on one document; past it, the first ones (in line order)
 * are shown and one more diagnostic, at the top of the document, says how many there are and that
 * the CLI lists them all ({@link tooManyNote}). An editor shows no use in 24,000 diagnostics on a
 * page, and each was held three times (the finding, the diagnostic, the JSON sent): ten open pages
 * of 8,000 stale example lines took the server past 900 MB (s32 sweep D5). The findings kept for
 * code actions and hovers are the ones shown. cSpell's language server caps at 100 per document.
 */
export const MAX_DIAGNOSTICS_PER_DOCUMENT = 1000;

/**
 * The findings of a lint (sorted by file, as `lint` returns them) with at most `max` per file:
 * the kept findings, and per file that had more, how many it had. Findings with no file are kept.
 */
export function capPerDocument(messages: readonly DriftMessage[], max: number = MAX_DIAGNOSTICS_PER_DOCUMENT): { kept: DriftMessage[]; over: Map<string, number> } {
  const counts = new Map<string, number>();
  const kept: DriftMessage[] = [];
  for (const m of messages) {
    if (!m.file) {
      kept.push(m);
      continue;
    }
    const n = (counts.get(m.file) ?? 0) + 1;
    counts.set(m.file, n);
    if (n <= max) kept.push(m);
  }
  const over = new Map<string, number>();
  for (const [file, n] of counts) if (n > max) over.set(file, n);
  return { kept, over };
}

/**
 * The diagnostic of a document with more findings than {@link MAX_DIAGNOSTICS_PER_DOCUMENT}, at
 * its first line (Information, code `too-many-findings`): `total` findings, the first `shown` are
 * listed, and the CLI command that lists them all.
 */
export function tooManyNote(file: string, total: number, shown: number = MAX_DIAGNOSTICS_PER_DOCUMENT): ReturnType<typeof toDiagnostic> {
  const n = (x: number): string => x.toLocaleString('en-US');
  return {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: 3,
    code: 'too-many-findings',
    source: 'docdrift',
    message: `${n(total)} findings in this document; the first ${n(shown)} are shown (the language server shows at most ${n(MAX_DIAGNOSTICS_PER_DOCUMENT)} per document). Run \`npx docdrift ${file}\` to list them all.`,
  };
}

/** The ids a suppression comment may name: the built-in rules and the engine's own. */
const RULE_IDS = [...rules, ...engineRules].map((r) => r.meta.id);

/** Whether `message` is a `didOpen`, `didChange` or `didClose` notification (what changes a buffer's text). */
function isTextNotification(message: Message): boolean {
  const method = (message as { method?: unknown }).method;
  return method === 'textDocument/didChange' || method === 'textDocument/didOpen' || method === 'textDocument/didClose';
}

/** Options of {@link startLanguageServer}. */
export interface LanguageServerOptions {
  /** Where the client's messages come from; default `process.stdin`. */
  input?: NodeJS.ReadableStream;
  /** Where the server's messages go; default `process.stdout`. */
  output?: NodeJS.WritableStream;
  /** Quiet time after an edit before linting, in milliseconds; default {@link DEBOUNCE_MS}. */
  debounceMs?: number;
  /** The process's current directory is not the one it started in (it was gone): the root comes from the client only. */
  noStartDirectory?: boolean;
  /**
   * Moves the next piece of the client's input that has arrived but not been read yet into
   * `input`, synchronously, and returns true; false when none is waiting. The server's thread
   * (src/lsp/lsp-worker.ts) takes it from its port with `receiveMessageOnPort`. A lint asks for
   * the input that came while it ran at points inside it, and gives way to an edit that makes
   * it outdated ({@link startLanguageServer}). Without it, a lint sees no edit until it ends.
   */
  pollInput?: () => boolean;
}

/**
 * The texts a lint read, by project path: every open buffer (with its LSP version), and every file
 * read from disk that a fix targets (`version` null). `starts`: the text's line starts, computed
 * at the first code action that needs them.
 */
type Snapshot = Map<string, { text: string; version: number | null; starts?: number[] }>;

/**
 * Starts the server on stdio (or the given streams) and resolves when the client's input ends
 * (also inside a message); from then on it sends nothing: a lint in flight publishes nothing, and
 * one waiting for its debounce is dropped.
 * The `exit` notification ends the process (vscode-languageserver's behaviour: exit code 0 after
 * `shutdown`, 1 without).
 */
export function startLanguageServer(options: LanguageServerOptions = {}): Promise<void> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const debounceMs = options.debounceMs ?? DEBOUNCE_MS;
  // stdout carries the protocol: anything the engine prints goes to stderr instead.
  console.log = console.error;
  console.info = console.error;
  /**
   * Random per server: the markers of buffers over the read cap (src/lsp/big-text.ts) carry it,
   * so that no text a client sends reads as one.
   */
  const nonce = randomUUID();
  // Large messages are parsed without copies of their long strings, and a text over the read cap
  // is held as a marker (src/lsp/big-text.ts: a 90 MB page peaked at 723 MB, #33 s38 sweep D7).
  // Each message is delivered as soon as its bytes are in (src/lsp/reader.ts), so that a lint
  // polling the input sees an edit at once (#33 s38 sweep D8). vscode-jsonrpc's reader also armed
  // a timer while a message was partly received, re-armed for ever (s31 sweep D4); this one has none.
  // A full-text edit that a later one of the same buffer replaces before it is handled is dropped
  // as the later one is read (src/lsp/supersede.ts, #33 s44 sweep G3: edits of a large page
  // written back to back while a lint read the input were all queued, until the thread died at
  // its heap limit).
  const pendingChanges = new PendingFullChanges();
  const reader = new ChunkMessageReader(
    (body) => {
      // Bounded before it is parsed: many small values cost 10-30 times their text (src/lsp/message-bounds.ts).
      checkMessageShape(body);
      return parseMessageBody(body, nonce);
    },
    (message) => {
      holdLargePages(message);
      pendingChanges.arrived(message);
      observeDuringLint(message);
    },
  );
  input.on('data', (chunk: Buffer) => reader.push(chunk));
  // Each open, edit and close is counted when the reader delivers it (`observeDuringLint`) and when
  // the connection has handled it (here): a lint starts only once every one delivered is handled,
  // so that none it has not seen is already past the point where it would make the lint outdated.
  const writer = new StreamMessageWriter(output);
  // Requests before `initialize` and a second `initialize` are answered with errors, not handled (src/lsp/lifecycle.ts).
  const gate = new InitializeGate();
  const connection: Connection = createConnection(ProposedFeatures.all, reader, writer, {
    messageStrategy: {
      handleMessage: (message, next) => {
        try {
          if (!pendingChanges.handling(message)) return;
          const admission = gate.admit(message);
          if (!admission.handle) {
            if (admission.answer) void writer.write(admission.answer).catch(() => undefined);
            return;
          }
          return next(message);
        } finally {
          if (isTextNotification(message)) textNotifications.handled++;
        }
      },
    },
  });
  // A frame the reader could not read (a malformed header, a body that is not JSON) is dropped:
  // said in the client's log, or the server seemed deaf with no word why (s44 sweep G2).
  reader.onError((error) => {
    if (error instanceof ReaderWarning) connection.console.warn(`docdrift: a message from the client: ${error.message}`);
    else connection.console.error(`docdrift: dropped a message from the client: ${error.message}`);
    // A request dropped unparsed is answered, or its client would wait for ever.
    if (error instanceof MessageShapeError && error.id !== undefined) void writer.write({ jsonrpc: '2.0', id: error.id, error: { code: ErrorCodes.InvalidRequest, message: `docdrift: request dropped unparsed: ${error.message}` } } as ResponseMessage).catch(() => undefined);
  });
  // Range edits (sent by clients that ignore the full-text sync the server asks for) are applied
  // under the same size caps as a text that arrives whole (src/lsp/range-edits.ts, #33 s47 sweep
  // K2: three buffers grown by 8 MB range inserts to 96 MB stopped the server at its heap limit).
  const rangeEdits = new CappedEdits({ nonce, hold: (uri, text) => holdLargePage(uri, text) });
  const documents = new TextDocuments<TextDocument>({ create: (uri, languageId, version, text) => TextDocument.create(uri, languageId, version, text), update: (document, changes, version) => rangeEdits.update(document, changes, version) });

  // Until the client names its workspace; a server started in a folder that is gone has none (s40 sweep D4).
  const startDirectory = options.noStartDirectory ? undefined : currentDirectory();
  let root = startDirectory ?? '';
  let config: DocdriftConfig | undefined;
  let configFile: string | undefined;
  /**
   * The config file the client named (`initializationOptions.configFile`), absolute; undefined:
   * found in the root as the CLI finds it. An option that is not a string is an error to show.
   */
  let explicitConfig: { file: string } | { error: string } | undefined;
  /** The last config error shown, so that the same error is shown once, not after every edit. */
  let shownError: string | undefined;
  let discovered: DiscoveredFiles | undefined;
  /**
   * The message of a discovery limit the root is over (src/engine/discover.ts): while it is set,
   * edits lint nothing and the tree is not walked again (each walk of a 15,000-source root costs
   * the full walk, after every edit: s29 sweep2 D4); a config change, a watched-file event or a
   * save clears it.
   */
  let overLimit: string | undefined;
  /**
   * The per-file cache in memory, made at `initialize` (the root is known then) over the project's
   * per-file cache on disk as the CLI left it, read only (`openPieceStore`: none when there is no
   * usable cache key or the cache directory is a link): the first lint reuses what the last CLI
   * run parsed and extracted.
   */
  let pieces = new GenerationalPieceStore();
  /**
   * The document worker, kept from one lint to the next: started per lint (as a CLI run does) it
   * cost ~85 ms of each lint after an edit (s29, scripts/lsp-latency.mjs on fixtures/example-python,
   * 20 edits: lint median 104 -> 11 ms, edit -> diagnostics 239 -> 134 ms with the debounce). Its run budgets
   * count from its start, so it is replaced after a lint in which a document overran, and every
   * {@link PARSER_LINTS} lints.
   */
  let parser: { parser: DocParser; lints: number } | undefined;
  /**
   * Pages that themselves ran over their parse budget (`ParseOutcome.overran`), with the text
   * they had, by file and request: their outcome is given again while the text is the same, not
   * parsed again at every lint (s40 sweep D3: three hostile pages on disk cost every README
   * keystroke 7 s instead of 20 ms). A page whose text changes is parsed again; the server's
   * restart tries them all again.
   */
  const overranPages = new Map<string, { text: string; outcome: ParseOutcome }>();
  const overranKey = (file: string, what: ParseWhat): string => `${what.doc ? 'd' : ''}${what.directives ? 'x' : ''}:${file}`;
  /**
   * The discovered inputs as last hashed (stat and sha1, src/engine/cache.ts `hashFiles`), kept from
   * one lint to the next: a file whose stat is unchanged keeps its hash unread, so a lint after an
   * edit of a page reads no code and answers the whole extraction from `pieces` (NeMo Gym, README
   * edits, scripts/lsp-latency.mjs: extract ~420 ms -> see the commit).
   */
  let fileEntries: Record<string, FileEntry> | undefined;
  /** URIs that have diagnostics on the client (to clear those whose findings are gone). */
  /** The diagnostics last published per document that has any, as the sha1 of their JSON (see lintOnce: unchanged ones are not sent again). */
  let published = new Map<string, string>();
  /** The last lint: its findings (after the baseline) and the texts they were computed from. */
  let last: { messages: DriftMessage[]; snapshot: Snapshot; model?: Model; over?: ReadonlyMap<string, number>; linted?: boolean } = { messages: [], snapshot: new Map() };
  let timer: NodeJS.Timeout | undefined;
  /**
   * The client's input ended: the connection is closed, and sending on it throws ("Connection is
   * closed"). A lint that was running then publishes nothing; it threw out of the error handler
   * as an uncaught exception, exit 1 with a stack (s31 sweep D4).
   */
  let clientGone = false;
  let running = false;
  let again = false;
  /** The internal error last shown (a failing lint), until a lint succeeds. */
  let internalError: string | undefined;
  /** Settles when the running {@link runLint} ends; hovers and definitions asked during a lint wait for it. */
  let lintEnded: Promise<void> = Promise.resolve();
  /** When the last edit of a buffer arrived (`performance.now()`, ms); -Infinity before the first. */
  let lastEditAt = -Infinity;
  /** Whether the last edit came after a pause (see `edited`). */
  let lastEditAfterPause = true;
  /**
   * The lint running: the buffers it read, the files it reads (`inputs`, computed at the first edit
   * that comes during it), and the project file whose newer text makes it outdated (`stale`).
   */
  let current: { snapshot: Snapshot; inputs?: Set<string>; stale?: string } | undefined;
  /**
   * The client sent `shutdown` or `exit` (seen as the reader delivered it): a lint running gives
   * way at its next check (`lintOutdated`) so that the request is answered, and no lint starts
   * after it. A cold lint of a large project (#33 s45 sweep G1: 35 s of slow pages) held
   * `shutdown` unanswered until it ended.
   */
  let shuttingDown = false;
  /**
   * What the lints' verdicts need of the open pages over the document limit whose texts the server
   * does not hold (`holdLargePages`), by URI and marker (`${uri}\n${marker}`). Each lint drops those
   * no open buffer holds any more.
   */
  const heldRecords = new Map<string, HeldPage>();
  /** The mention matcher of the last lint (`LintOptions.onMentionMatcher`): a large page that arrives is judged with it. */
  let lastMatcher: MentionMatcher | undefined;
  /** Opens, edits and closes the reader has delivered and the connection has handled, counted since the start. */
  const textNotifications = { delivered: 0, handled: 0 };

  /** The project-relative POSIX path of a `file:` URI, or undefined outside the root (or another scheme). */
  const projectPath = (uri: string): string | undefined => {
    // A client's malformed request (`uri: 42`, `file://host/x`) names no project file: no answer, not a TypeError (s31 sweep N3).
    if (typeof uri !== 'string' || !uri.startsWith('file:')) return undefined;
    let abs: string;
    try {
      abs = fileURLToPath(uri);
    } catch {
      return undefined;
    }
    const rel = path.relative(root, abs);
    if (rel === '' || escapesRoot(rel)) return undefined;
    return rel.split(path.sep).join('/');
  };
  /**
   * The URI each open buffer was opened under, by project path: diagnostics of an open page are
   * published under the client's own spelling. Clients percent-encode differently (VS Code encodes
   * `@`, `+`, `=`, `,` in paths, `%c3%a9` may be lower-case), and one that compares URIs after
   * decoding them kept an empty list published under Node's spelling after the findings under its
   * own (s47 sweep K6: no finding shown for `docs/@v2/guide.md`).
   */
  const clientUris = new Map<string, string>();
  const uriOf = (file: string): string => clientUris.get(file) ?? pathToFileURL(path.join(root, file)).href;
  /** The open buffer of a project file, looked up by path (clients spell URIs differently: `%3A`, case). */
  const openDocument = (file: string): TextDocument | undefined => documents.get(uriOf(file)) ?? documents.all().find((d) => projectPath(d.uri) === file);

  /**
   * Why a lint cannot read an open buffer's text `text`, or undefined when it can: the server holds
   * no text of a buffer over the read cap (src/lsp/big-text.ts), which is reported as a CLI run
   * reports such a file on disk (`EFBIG`); nor of one edited by range after that (a client that
   * ignores the full-text sync the server asks for), whose text it cannot know.
   */
  const unreadableText = (text: string): ReadFileError | undefined => {
    const omitted = readOmitted(text, nonce);
    if (omitted === undefined) return undefined;
    if (omitted !== 'edited') return omitted.bytes > MAX_READ_BYTES ? tooLargeError(omitted.bytes) : new ReadFileError('EFBIG', `${(omitted.bytes / (1024 * 1024)).toFixed(1)} MB, over the 1 MB limit for one document: the language server holds no text of an open page this large`);
    const bytes = editedMarkerBytes(text, nonce);
    if (bytes !== undefined && bytes <= MAX_READ_BYTES) return new ReadFileError('EFBIG', `edited by range after it went over the ${MAX_DOCUMENT_LENGTH / (1024 * 1024)} MB limit for one document, the language server holds no text of it: close and reopen it`);
    if (bytes !== undefined) return new ReadFileError('EFBIG', `edited by range after it went over the ${(MAX_READ_BYTES / (1024 * 1024)).toFixed(1)} MB limit, the language server holds no text of it: close and reopen it`);
    return new ReadFileError('EFBIG', 'edited by range after it went over a size limit, the language server holds no text of it: close and reopen it');
  };

  /**
   * A page's text over the document limit (1 Mi UTF-16 code units, src/docs/limits.ts), as a
   * `didOpen` or full-text `didChange` brings it, before the connection queues the message: the
   * text is replaced by its marker (src/lsp/big-text.ts, its UTF-8 size and sha1), and what a
   * lint's verdict on it needs is kept under the marker (`heldRecords`, src/engine/held-pages.ts),
   * judged with the last lint's mention matcher. Such a page is never parsed: a lint reports it as
   * a CLI run reports the same file on disk ("Not read: it is 60.0 MB, over the 1 MB limit"), and
   * no lint holds its text (#33 s46 sweep H4: four open pages of 60 MB stopped the server at its
   * heap limit, 530-603 MB of RSS).
   *
   * Later edits: under the full-text sync the server asks for, each edit brings the whole text
   * again, judged anew (one back within the limit is held whole and parsed as any page). A range
   * edit that replaces the whole held text is judged anew too; any other range edit applied to a
   * marker gives a text the server cannot know: that buffer is reported as not read ("edited by
   * range …: close and reopen it", `unreadableText`), never read from disk, whose text is not the
   * buffer's. A page that goes over the limit by range edits is held here as it goes over
   * (src/lsp/range-edits.ts).
   */
  const holdLargePage = (uri: unknown, text: string): string => {
    if (text.length <= MAX_DOCUMENT_LENGTH || typeof uri !== 'string' || !LARGE_PAGE_RE.test(withoutQuery(uri))) return text;
    // A buffer outside the workspace is never linted: its facts are not worked out.
    const file = projectPath(uri);
    const marker = omittedMarker(nonce, { bytes: Buffer.byteLength(text), sha1: textSha1(text) });
    if (file !== undefined) heldRecords.set(`${uri}\n${marker}`, heldPage(file, text, lastMatcher));
    // Where its text ends: a range edit that replaces all of it gives a text the server knows.
    rangeEdits.held(uri, marker, text);
    return marker;
  };
  /** {@link holdLargePage} on the text of a `didOpen` and on each full-text change of a `didChange` (a message the connection has not seen yet). */
  const holdLargePages = (message: Message): void => {
    const { method, params } = message as { method?: unknown; params?: { textDocument?: { uri?: unknown; text?: unknown }; contentChanges?: unknown } };
    const document = params?.textDocument;
    if (method === 'textDocument/didOpen' && document && typeof document.text === 'string') document.text = holdLargePage(document.uri, document.text);
    if (method !== 'textDocument/didChange' || !document || !Array.isArray(params.contentChanges)) return;
    for (const change of params.contentChanges as unknown[]) {
      const c = change as { text?: unknown; range?: unknown; rangeLength?: unknown } | null;
      if (c !== null && typeof c === 'object' && typeof c.text === 'string' && c.range === undefined && c.rangeLength === undefined) c.text = holdLargePage(document.uri, c.text);
    }
  };

  /** One `window/showMessage` error for `text` (not again while it is the last one shown); old diagnostics cleared. */
  const showError = (text: string): void => {
    if (clientGone) return;
    // window/showMessage (a notification), not showMessageRequest: nothing to answer.
    if (text !== shownError) void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Error, message: `docdrift: ${text}` });
    shownError = text;
    // Old diagnostics would claim a check that no longer runs.
    for (const uri of published.keys()) void connection.sendDiagnostics({ uri, diagnostics: [] });
    published = new Map();
    last = { messages: [], snapshot: new Map() };
  };

  /**
   * Told of each message the client sends as it is read (src/lsp/reader.ts), before the server
   * handles it: during a lint, an open, edit or close that changes the text of a file the lint
   * reads (an open buffer it took, or one of its inputs) makes it outdated (`current.stale`). An
   * open or close that leaves the text as the lint read it (the disk's) does not.
   */
  const observeDuringLint = (message: Message): void => {
    const requested = (message as { method?: unknown }).method;
    if (requested === 'shutdown' || requested === 'exit') shuttingDown = true;
    if (!isTextNotification(message)) return;
    textNotifications.delivered++;
    if (!current || current.stale !== undefined || !discovered) return;
    const { method, params } = message as { method?: unknown; params?: { textDocument?: { uri?: unknown; version?: unknown; text?: unknown } } };
    const file = typeof params?.textDocument?.uri === 'string' ? projectPath(params.textDocument.uri) : undefined;
    if (file === undefined) return;
    const taken = current.snapshot.get(file);
    current.inputs ??= new Set(inputFiles(discovered));
    if (!taken && !current.inputs.has(file)) return;
    if (method === 'textDocument/didChange') {
      if (taken && taken.version === params?.textDocument?.version) return;
    } else if (method === 'textDocument/didOpen') {
      const text = params?.textDocument?.text;
      if (typeof text !== 'string' || (taken ? taken.text === text : sameOnDisk(file, text, new Map()))) return;
    } else if (!taken || sameOnDisk(file, taken.text, new Map())) {
      return;
    }
    current.stale = file;
  };
  /**
   * Whether the lint running is outdated: the client's input that came meanwhile is read first
   * (`pollInput`), message by message, until one makes it so. Asked by the lint between its stages
   * and documents, and by its document parser while it waits (every 200 ms at most).
   */
  const lintOutdated = (): boolean => {
    if (!current) return false;
    while (current.stale === undefined && !shuttingDown && options.pollInput?.()) {
      // Read: observeDuringLint has seen what it completed.
    }
    return current.stale !== undefined || shuttingDown;
  };

  /** The lint gave way while its document parser waited for a document: the parser's worker was stopped in the middle of one. */
  let parserStopped = false;
  /** The document parser's `cancelled` (see `lintOutdated`): when it answers true, the parser stops its worker. */
  const parserCancelled = (): boolean => {
    if (!lintOutdated()) return false;
    parserStopped = true;
    return true;
  };

  const loadProjectConfig = (): void => {
    config = undefined;
    configFile = undefined;
    discovered = undefined;
    overLimit = undefined;
    if (explicitConfig && 'error' in explicitConfig) {
      showError(`${explicitConfig.error} (no diagnostics until the config loads)`);
      return;
    }
    try {
      const loaded = loadConfig(root, explicitConfig?.file, RULE_IDS);
      validateRuleOptions(loaded.config, [...rules, ...engineRules], loaded.file);
      config = loaded.config;
      configFile = loaded.file;
      shownError = undefined;
      for (const warning of loaded.warnings ?? []) connection.console.warn(`docdrift: warning: ${warning}`);
    } catch (error) {
      const text = error instanceof ConfigError ? error.message : `cannot load the configuration: ${(error as Error).message}`;
      showError(`${text} (no diagnostics until the config loads)`);
    }
  };

  /**
   * Content hashes of the discovered inputs as the lint reads them: a file on disk by its bytes
   * (re-read only when its stat changed, `fileEntries`), an open buffer by its text, prefixed
   * `text:` so that a buffer never shares a key with a file's bytes, a buffer the lint cannot
   * read as a file on disk that cannot be (`error:<code>`, never trusted); and the Python text
   * facts of the files on disk that are not open (an open one is scanned from its text).
   */
  const inputHashes = (files: DiscoveredFiles, overlayHashes: ReadonlyMap<string, string>, unreadable: ReadonlyMap<string, ReadFileError>): { hashes: Map<string, string>; pythonFacts: Map<string, NonNullable<FileEntry['py']>> } => {
    const { entries } = hashFiles(root, inputFiles(files), fileEntries);
    fileEntries = entries;
    const hashes = new Map<string, string>();
    const pythonFacts = new Map<string, NonNullable<FileEntry['py']>>();
    for (const [file, entry] of Object.entries(entries)) {
      const overlaid = overlayHashes.get(file);
      if (overlaid !== undefined) {
        hashes.set(file, overlaid);
        continue;
      }
      const refused = unreadable.get(file);
      if (refused) {
        hashes.set(file, `error:${refused.code}`);
        continue;
      }
      hashes.set(file, entry.hash);
      if (entry.py) pythonFacts.set(file, entry.py);
    }
    return { hashes, pythonFacts };
  };

  /**
   * Sends the open pages that a lint will parse again (edited since; segmented last time, so read
   * by the last lint) to the document parser before the lint's stat pass: the worker parses the
   * page being edited on the other core while this thread stats the inputs (NeMo Gym's README,
   * 209 KB: its parse, ~20 ms, was waited for after the ~25 ms stat pass). The lint asks for the
   * same request (same key, text and segments: the fact cache's `docParser` with the same hashes of the open
   * texts) and takes the answer. A page of {@link LARGE_DOCUMENT_LENGTH} or more is sent early only
   * when the project's large pages, all together, are within the run's limit on them (else the
   * order in which they are met decides which is read, and the lint's order must decide).
   */
  const prefetchEdited = (files: DiscoveredFiles, overlay: ReadonlyMap<string, string>, overlayHashes: ReadonlyMap<string, string>, docParser: DocParser): number => {
    const docs = new Set(files.docs);
    let largeTotal: number | undefined;
    const largeWithinLimit = (): boolean => {
      if (largeTotal === undefined) {
        largeTotal = 0;
        for (const file of files.docs) {
          const text = overlay.get(file);
          // A page's UTF-16 length is at most its UTF-8 size; a page the last stat pass did not see is unknown.
          const length = text?.length ?? fileEntries?.[file]?.size ?? Infinity;
          if (length >= LARGE_DOCUMENT_LENGTH) largeTotal += length;
        }
      }
      return largeTotal <= RUN_LARGE_DOCUMENTS_LENGTH;
    };
    // The lint's fact cache keys the open pages by these hashes too (`overlayHashed`).
    const cache = new FactCache({ store: pieces, hashes: overlayHashes });
    let early: DocParser | undefined;
    let sent = 0;
    for (const [file, text] of overlay) {
      if (!docs.has(file) || !cache.hasSegments(file)) continue;
      if (text.length >= LARGE_DOCUMENT_LENGTH && !largeWithinLimit()) continue;
      early ??= cache.docParser(docParser);
      const what = { doc: true, directives: mayHaveDirectives(text) };
      if (early.isCached?.(file, what)) continue;
      early.prefetch?.(file, text, what);
      sent++;
    }
    return sent;
  };

  /** The texts of input files on disk the last lint read, with the content hash they had (see `LintOptions.diskTexts`). */
  let keptTexts = new Map<string, { hash: string; text: string }>();

  /**
   * `found` plus the open buffers in `overlay` that no file on disk backs and that the config's
   * `docs` patterns list (pages; s42 sweep E3) or its `sources` patterns (code: a new module not
   * saved yet, s43 sweep F7), not `ignore`d, each list in path order; `found` itself when there
   * are none.
   */
  const withUnsavedPages = async (found: DiscoveredFiles, overlay: ReadonlyMap<string, string>, lintConfig: DocdriftConfig): Promise<DiscoveredFiles> => {
    const listed = new Set([...found.docs, ...found.sources]);
    // A buffer under a folder that is a symbolic link is left out, as the CLI's listing does not enter linked folders (s43 sweep F8).
    const unlisted = [...overlay.keys()].filter((file) => !listed.has(file) && !existsSync(path.join(root, file)) && !underLinkedFolder(root, file));
    if (unlisted.length === 0) return found;
    const byPath = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
    const pages = unlisted.filter((file) => /\.(?:md|markdown|mdx|rst|rest)$/i.test(file));
    const code = unlisted.filter((file) => /\.(?:pyi?|[cm]?tsx?)$/i.test(file));
    const unsavedPages = pages.length > 0 ? pages.filter(await docPatternMatcher(root, lintConfig.docs, lintConfig.ignore)) : [];
    // The `sources` patterns are globs as `docs` are: the same matcher reads them.
    const unsavedCode = code.length > 0 ? code.filter(await docPatternMatcher(root, lintConfig.sources, lintConfig.ignore)) : [];
    if (unsavedPages.length === 0 && unsavedCode.length === 0) return found;
    return {
      ...found,
      ...(unsavedPages.length > 0 ? { docs: [...found.docs, ...unsavedPages].sort(byPath) } : {}),
      ...(unsavedCode.length > 0 ? { sources: [...found.sources, ...unsavedCode].sort(byPath) } : {}),
    };
  };

  /** The project's baseline as a lint applies it, or the error that keeps it from being read (findings are then shown without it). */
  const loadedBaseline = (lintConfig: DocdriftConfig): LoadedBaseline | BaselineError => {
    try {
      return loadBaseline({ root, cwd: root, write: false, paths: [], staleSeverity: engineRuleSeverity(baselineEntryStale, lintConfig.rules) });
    } catch (error) {
      if (!(error instanceof BaselineError)) throw error;
      return error;
    }
  };

  /**
   * Sends the diagnostics of the open pages `files` from the first part of a lint's findings
   * (`LintOptions.focus`: those located in them, suppression comments applied), the baseline
   * applied and capped as the whole lint's are, each with the version of the page the lint read,
   * and waits until they are written. Returns what was sent, by URI. The baseline's own findings
   * (stale entries, located in the baseline file) come with the whole lint.
   */
  const publishFirst = async (found: DriftMessage[], files: ReadonlySet<string>, snapshot: Snapshot, baseline: LoadedBaseline | BaselineError): Promise<Map<string, { digest: string; version: number | null }>> => {
    let messages = baseline instanceof BaselineError ? found : finishBaseline(found, baseline).messages.filter((m) => m.file !== undefined && files.has(m.file));
    const capped = capPerDocument(messages);
    messages = capped.kept;
    const byFile = new Map<string, DriftMessage[]>([...files].map((file) => [file, []]));
    for (const m of messages) byFile.get(m.file!)?.push(m);
    const out = new Map<string, { digest: string; version: number | null }>();
    const sends: Promise<void>[] = [];
    for (const [file, list] of byFile) {
      const uri = uriOf(file);
      const diagnostics = list.map((m) => toDiagnostic(m));
      const over = capped.over.get(file);
      if (over !== undefined) diagnostics.unshift(tooManyNote(file, over));
      const version = snapshot.get(file)?.version ?? openedVersion(uri);
      const digest = createHash('sha1').update(JSON.stringify(diagnostics)).digest('hex');
      out.set(uri, { digest, version });
      if (diagnostics.length > 0) published.set(uri, digest);
      else published.delete(uri);
      sends.push(connection.sendDiagnostics({ uri, ...(version !== null ? { version } : {}), diagnostics }).catch(() => undefined));
    }
    // Written before the rest of the rules run (vscode-jsonrpc writes one message per turn of the event loop).
    await Promise.all(sends);
    return out;
  };

  /** Lints the project once with the open buffers as an overlay and publishes the diagnostics. */
  const lintOnce = async (): Promise<void> => {
    const lintConfig = config;
    if (!lintConfig || overLimit !== undefined) return;
    // The opens, edits and closes already read are handled first (the connection handles one per
    // turn of the event loop): the lint then takes their texts, or sees the later ones as they come.
    for (let turns = 0; textNotifications.handled < textNotifications.delivered && turns < 100_000 && !clientGone; turns++) {
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    // A file event meanwhile loaded the config again (or found it broken): a lint follows it (`diskChanged`).
    if (config !== lintConfig) return;
    const t0 = performance.now();
    const overlay = new Map<string, string>();
    const unreadable = new Map<string, ReadFileError>();
    const snapshot: Snapshot = new Map();
    // The large pages held without their text (`holdLargePage`), with their content hashes.
    const heldPages = new Map<string, HeldPage>();
    const heldHashes = new Map<string, string>();
    const heldKeys = new Set<string>();
    for (const doc of documents.all()) {
      const file = projectPath(doc.uri);
      if (file === undefined) continue;
      const text = doc.getText();
      const refused = unreadableText(text);
      if (refused) {
        // Also refused (never read from disk) for any reader but the pages'.
        unreadable.set(file, refused);
        const page = heldRecords.get(`${doc.uri}\n${text}`);
        const omitted = readOmitted(text, nonce);
        if (page !== undefined && omitted !== undefined && omitted !== 'edited') {
          heldPages.set(file, page);
          heldHashes.set(file, `text:${omitted.sha1}`);
          heldKeys.add(`${doc.uri}\n${text}`);
        }
      } else overlay.set(file, text);
      snapshot.set(file, { text, version: doc.version });
    }
    // Their pieces are let go last when the kept ones are over the budget (src/lsp/pieces.ts).
    pieces.open = new Set(snapshot.keys());
    // Every text delivered is handled by now (above): the pages no buffer holds are let go.
    if (textNotifications.handled >= textNotifications.delivered) {
      for (const key of heldRecords.keys()) if (!heldKeys.has(key)) heldRecords.delete(key);
      rangeEdits.keepOnly(new Set(documents.all().map((doc) => `${doc.uri}\n${doc.getText()}`)));
    }
    current = { snapshot };
    if (!discovered) {
      // The workspace folder deleted or renamed under the server: nothing could be checked, which
      // is said (the CLI exits 2, "--root … is not a directory"), not an empty lint (s41 sweep D7).
      if (!isDirectory(root)) {
        showError(`the workspace folder ${escapeLine(root)} is no longer a directory (deleted or renamed?); no diagnostics until it is back`);
        return;
      }
      try {
        discovered = await discoverFiles(root, lintConfig.sources, lintConfig.docs, lintConfig.ignore);
      } catch (error) {
        if (!(error instanceof DiscoveryLimitError)) throw error;
        // An expected condition, not an internal error: the CLI's one line (it exits 2), shown once, no stack.
        overLimit = escapeLine(error.message);
        showError(overLimit);
        return;
      }
      // With a config loaded, an error shown was the limit's: shown again if the root goes over it again.
      shownError = undefined;
    }
    // What this lint reads (`discovered` is dropped when a file event comes while it runs), with
    // the open pages that are not on disk (a new page not saved yet, one deleted while open) that
    // the docs patterns list: discovery lists the disk only, and such a buffer was published `[]`
    // with no word (s42 sweep E3). The CLI reads the page once it is saved.
    // Buffers the lint holds no text of (held large pages, texts over the read cap, range-edited
    // markers) are listed too: an unsaved one gets its warning as a saved one does.
    const linted = await withUnsavedPages(discovered, unreadable.size > 0 ? new Map([...overlay, ...[...unreadable.keys()].map((file): [string, string] => [file, ''])]) : overlay, lintConfig);
    if (config !== lintConfig) return;
    // Started when the first document is parsed. A cold lint (nothing stored yet) parses the
    // documents after the code is extracted, not while (no `prefetch`, which a CLI run uses for
    // speed): overlapped, the document worker, the Python and TypeScript extraction workers and
    // this thread all peaked at once. #33 s33 sweep D6's workspace (41 large pages, sources and
    // schemas, all open), with the process's main thread no longer loading the engine (src/bin.ts):
    // 590 -> 488-491 MB on Node 22, 602 -> 480-491 MB on Node 24, 549-561 -> 460-496 MB on Node 20. Later
    // lints extract from `pieces` and parse only the edited pages: they overlap as before (an edit's
    // README parse, serial, added ~100 ms to NeMo Gym's edit -> diagnostics).
    // Its heap as a CLI run's of the same project has (the young generation's size goes by the
    // run's files, `workerYoungGenerationMb`): whether a page fits it is then the same for both.
    parserStopped = false;
    parser ??= { parser: await createDocParser({ eager: false, keepAfterSegmented: true, files: linted.docs.length + linted.sources.length, cancelled: parserCancelled }), lints: 0 };
    const shared = parser.parser;
    // The run's parse ceiling (RUN_PARSE_CEILING_MS) is per lint: the parser serves up to PARSER_LINTS of them.
    shared.startRun?.();
    const { prefetch: _overlapped, ...sequential } = shared;
    // lint() closes the parser it is given: this one outlives the lint. Before each document, the
    // lint gives way if an edit made it outdated (its parser asks too while it waits for one).
    const parse: DocParser['parse'] = (file, text, what) => {
      if (lintOutdated()) throw new RunCancelled();
      const key = overranKey(file, what);
      const kept = overranPages.get(key);
      if (kept !== undefined && kept.text === text) return kept.outcome;
      const outcome = shared.parse(file, text, what);
      if (outcome.overran) overranPages.set(key, { text, outcome });
      else overranPages.delete(key);
      return outcome;
    };
    // Nor started ahead of time: a prefetched page is parsed in the worker whether asked for or not.
    const prefetch: DocParser['prefetch'] = (file, text, what) => {
      if (overranPages.get(overranKey(file, what))?.text !== text) shared.prefetch?.(file, text, what);
    };
    const docParser: DocParser = { ...(pieces.empty ? sequential : { ...shared, prefetch }), parse, close: () => undefined };
    // The open texts' content hashes (`text:` + sha1), as the lint's pieces are keyed by them.
    const overlayHashes = new Map([...[...overlay].map(([file, text]): [string, string] => [file, `text:${textSha1(text)}`]), ...heldHashes]);
    const sentAhead = pieces.empty ? 0 : prefetchEdited(linted, overlay, overlayHashes, docParser);
    let result: Awaited<ReturnType<typeof lint>> | undefined;
    const readTexts = new Map<string, string>();
    // Read once for both parts of the lint's findings (see `focus`).
    const baseline = loadedBaseline(lintConfig);
    /** What the first part sent, by URI: the digest of its diagnostics and the version they are for. */
    let firstSent: Map<string, { digest: string; version: number | null }> | undefined;
    // The last lint's model is let go before this one builds its own: both held at once doubled
    // the documents (60 pages of 4,400 rows, #33 s35 sweep D9: the server stopped at its 256 MB
    // heap limit on the first edit). A hover asked meanwhile waits for this lint (`lintEnded`).
    last.model = undefined;
    try {
      // Python CLI flags are extracted in the CLI's worker, under its CPU budget and heap limit:
      // in-thread, a 2 KB decli module of s28 sweep D3 blocked the server (s29 sweep2 D1: hover
      // and shutdown unanswered, 46.7 s CPU, 2.6 GB -> 3.0 s CPU, 192 MB, hover in 2 ms). Only
      // when the flag files changed: otherwise the flags piece in `pieces` answers (lsp-latency.mjs,
      // example-python, 20 edits: edit -> diagnostics median 137 -> 140 ms, lint 14 -> 17 ms).
      const { hashes, pythonFacts } = inputHashes(linted, overlayHashes, unreadable);
      // The disk texts the last lint read whose content is unchanged are not read again.
      const diskTexts = new Map<string, string>();
      for (const [file, kept] of keptTexts) if (hashes.get(file) === kept.hash) diskTexts.set(file, kept.text);
      // The open pages' findings are worked out and sent first (issue #36): NeMo Gym's README has
      // 8 of the project's 3,553 usages, and the rules' work for the other 360 pages (~120 ms of a
      // README edit) came before its diagnostics.
      const openPages = new Set(linted.docs.filter((file) => snapshot.has(file)));
      const focus: LintOptions['focus'] =
        openPages.size > 0
          ? {
              files: openPages,
              first: async (part) => {
                firstSent = await publishFirst(part.messages, openPages, snapshot, baseline);
              },
            }
          : undefined;
      result = await lint({ root, config: lintConfig, ...(configFile ? { configFile } : {}), rules, knownRuleIds: RULE_IDS, discovered: linted, overlay, ...(unreadable.size > 0 ? { unreadable } : {}), pieces, docParser, readTexts, diskTexts, hashes, pythonFacts, overlayHashed: true, warnEachUnreadPage: true, ...(heldPages.size > 0 ? { heldPages } : {}), onMentionMatcher: (matcher) => (lastMatcher = matcher), cancelled: lintOutdated, ...(focus ? { focus } : {}) });
      keptTexts = new Map();
      for (const [file, text] of readTexts) {
        const hash = hashes.get(file);
        if (hash !== undefined && !hash.startsWith('error:') && !hash.startsWith('text:')) keptTexts.set(file, { hash, text });
      }
      // Outdated at its very end: its findings are dropped too. So are they when a file event loaded
      // the config again while it ran (a broken config's error must not be followed by old findings).
      if (lintOutdated() || config !== lintConfig) throw new RunCancelled();
    } finally {
      const o = shared.overruns?.();
      // A lint given up in the middle of a document leaves CPU time spent on a text no longer
      // linted, counted against the parse budget without its length: the next lint, like a CLI run,
      // starts with a fresh parser. Given up between documents, the parser is kept (and its worker
      // warm), as after any lint: what it spent went with the length it parsed.
      if (parserStopped || ++parser.lints >= PARSER_LINTS || (o && o.documents + o.skipped + o.runBudgetSkipped + o.largeSkipped + o.ceilingSkipped > 0)) {
        shared.close();
        parser = undefined;
      }
    }
    // Not after a lint given up: the pieces the last whole lint used stay for the next one.
    pieces.nextRun();
    if (clientGone) return;
    const { model, stats } = result;
    let messages: DriftMessage[] = result.messages;
    if (baseline instanceof BaselineError) connection.console.error(`docdrift: ${baseline.message} (findings shown without the baseline)`);
    else messages = finishBaseline(messages, baseline).messages;
    for (const failure of result.failures) connection.console.error(`docdrift: internal error in rule ${failure.ruleId}: ${String((failure.error as Error)?.message ?? failure.error)}`);
    for (const problem of result.configProblems) connection.console.error(`docdrift: ${problem}`);
    // What is shown is what is kept: at most MAX_DIAGNOSTICS_PER_DOCUMENT findings per document.
    const total = messages.length;
    const capped = capPerDocument(messages);
    messages = capped.kept;
    result = undefined;
    // The disk texts the fixes' offsets were computed from (an open buffer's is in the snapshot).
    for (const m of messages) {
      const target = m.fix?.file;
      if (target === undefined || snapshot.has(target)) continue;
      const text = readTexts.get(target);
      if (text !== undefined) snapshot.set(target, { text, version: null });
    }
    last = { messages, snapshot, model, over: capped.over, linted: true };
    // The findings by document, in the order of the messages, each converted only when sent. Open
    // buffers first, in the order the client opened them: the page being edited is what its
    // author waits for (NeMo Gym: 278 documents have findings; the README's came last, after 210 KB
    // of the others' diagnostics were written and read).
    const byUri = new Map<string, DriftMessage[]>();
    const open = new Set<string>();
    for (const doc of documents.all()) {
      if (projectPath(doc.uri) === undefined) continue;
      byUri.set(doc.uri, []);
      open.add(doc.uri);
    }
    const uriOfFile = new Map<string, string>();
    for (const m of messages) {
      if (!m.file) continue;
      let uri = uriOfFile.get(m.file);
      if (uri === undefined) uriOfFile.set(m.file, (uri = uriOf(m.file)));
      const list = byUri.get(uri);
      if (list) list.push(m);
      else byUri.set(uri, [m]);
    }
    const overByUri = new Map<string, [file: string, total: number]>();
    for (const [file, total] of capped.over) overByUri.set(uriOf(file), [file, total]);
    // vscode-jsonrpc writes one message per turn of the event loop (its write semaphore waits for
    // setImmediate), and a lint runs mostly synchronously: the next lint, started at once, left
    // every notification of this one queued, unsent, with its diagnostics, lint after lint (s32
    // sweep D5: 50 open pages, nothing published in 55 s, 1.3 GB and growing). The lint ends when
    // its diagnostics are written.
    const sends: Promise<void>[] = [];
    const send = (params: { uri: string; version?: number; diagnostics: ReturnType<typeof toDiagnostic>[] }): void => {
      sends.push(connection.sendDiagnostics(params).catch(() => undefined));
    };
    const previous = published;
    for (const uri of previous.keys()) if (!byUri.has(uri)) send({ uri, diagnostics: [] });
    const sent = new Map<string, string>();
    /** Documents published without a version (no buffer held them when their turn came), by URI. */
    const unversioned = new Map<string, string>();
    let openSent = false;
    for (const [uri, found] of byUri) {
      if (!openSent && !open.has(uri)) {
        // The open buffers' diagnostics are written before the others are converted (NeMo Gym:
        // about 10 ms of converting, hashing and serialising 278 documents' findings came first).
        // Meanwhile `published` is what the client has (a config error shown while waiting clears it).
        openSent = true;
        published = new Map([...[...previous].filter(([u]) => byUri.has(u)), ...sent]);
        const ours = last;
        await Promise.all(sends);
        // The config broke meanwhile: its error replaced these findings (showError), and no lint runs.
        if (last !== ours || clientGone) return;
      }
      const diagnostics = found.map((m) => toDiagnostic(m));
      const over = overByUri.get(uri);
      if (over !== undefined) diagnostics.unshift(tooManyNote(...over));
      // The version the lint read, not the buffer's now: an edit during the lint is not checked yet.
      const file = projectPath(uri);
      const version = file === undefined ? null : (snapshot.get(file)?.version ?? openedVersion(uri));
      if (version === null && file !== undefined) unversioned.set(uri, file);
      const digest = createHash('sha1').update(JSON.stringify(diagnostics)).digest('hex');
      if (diagnostics.length > 0) sent.set(uri, digest);
      // The first part sent these very diagnostics for this version of the page already.
      const before = firstSent?.get(uri);
      if (before !== undefined && before.digest === digest && before.version === version) continue;
      // A document no buffer holds (no version to confirm) whose findings are the ones last
      // published for it: the client has them already.
      if (version === null && previous.get(uri) === digest) continue;
      send({ uri, ...(version !== null ? { version } : {}), diagnostics });
    }
    published = sent;
    byUri.clear();
    const t = stats.timings;
    connection.console.log(
      `docdrift: linted ${linted.docs.length} documents and ${linted.sources.length} sources in ${(performance.now() - t0).toFixed(0)} ms; ${total} findings${capped.over.size > 0 ? ` (${messages.length} shown: ${capped.over.size} ${capped.over.size === 1 ? 'document has' : 'documents have'} more than ${MAX_DIAGNOSTICS_PER_DOCUMENT})` : ''} ` +
        `(extract ${t.extract.toFixed(0)} ms, docs ${t.docs.toFixed(0)} ms, model ${t.model.toFixed(0)} ms, rules ${t.rules.toFixed(0)} ms; cache ${(pieces.size / 1048576).toFixed(1)} MB (${(pieces.serialisedSize / 1048576).toFixed(1)} MB of it serialised, the rest held as the values read back), ${pieces.evicted} document pieces let go for its ${Number((KEPT_DOCUMENT_BYTES / 1048576).toFixed(1))} MB budget and ${pieces.fromFallback} pieces read from the disk cache so far${sentAhead > 0 ? `; ${sentAhead} edited ${sentAhead === 1 ? 'page' : 'pages'} sent to the parser before the stat pass` : ''})`,
    );
    await Promise.all(sends);
    // A page opened with the disk's text while this lint published (after its turn came, while
    // the notifications were written) waits for no other lint (`openedAsOnDisk`): its findings
    // go out now with its version, or the editor would wait for them until the next edit.
    for (const [uri, file] of unversioned) if (openedAsOnDisk.has(uri) && !clientGone) publishOpened(uri, file);
  };

  /** Runs {@link lintOnce}, one at a time: an edit during a run starts one more run after it. */
  const runLint = async (): Promise<void> => {
    // Nobody reads a lint's result after `shutdown`.
    if (shuttingDown) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    let ended = (): void => undefined;
    lintEnded = new Promise<void>((resolve) => {
      ended = resolve;
    });
    /** The lint in progress was given up for a newer text (then one more lint follows the edits). */
    let gaveWay = false;
    try {
      do {
        again = false;
        let failed = false;
        const t0 = performance.now();
        try {
          await lintOnce();
        } catch (error) {
          if (isRunCancelled(error)) {
            gaveWay = true;
            if (!clientGone) connection.console.log(`docdrift: lint given up after ${(performance.now() - t0).toFixed(0)} ms: ${current?.stale === undefined && shuttingDown ? 'the client asked the server to shut down' : `${current?.stale ?? 'a file'} changed while it ran`}`);
            break;
          }
          failed = true;
          if (!clientGone) {
            connection.console.error(`docdrift: internal error: ${(error as Error)?.stack ?? String(error)}`);
            // Shown, not only logged: an editor that shows no finding would read as a clean page
            // (a broken install, its Python grammar missing: s36 sweep D8). The CLI exits 2.
            const first = String((error as Error)?.message ?? error).split('\n')[0]!;
            const text = `internal error, nothing is checked: ${escapeLine(first.slice(0, 300))} (the server's log has the details)`;
            // Once until a lint succeeds, not on every edit.
            if (text !== internalError) showError(text);
            internalError = text;
          }
        } finally {
          current = undefined;
        }
        if (!failed) internalError = undefined;
        // A turn of the event loop before the next lint: the client's messages that came during
        // this one (opens, edits) are read first, so the next lint checks them.
        if (again && !clientGone) await new Promise<void>((resolve) => setImmediate(resolve));
      } while (again && !clientGone);
    } finally {
      running = false;
      ended();
    }
    // The edit that outdated the lint (and those after it) are read and handled next; the lint
    // of the newest texts is timed as any edit's is (`edited`): at once when the last edit came
    // after a pause, else once they pause. The open pages' diagnostics of a lint given up after its
    // first part were sent (`focus`): an edit made on seeing them is one after a pause, and waited
    // a whole debounce more when a lint given up counted as an edit (NeMo Gym README).
    if (gaveWay && !clientGone && !shuttingDown) schedule(lastEditAfterPause ? 0 : Math.max(0, lastEditAt + debounceMs - performance.now()));
  };
  const schedule = (delay = debounceMs): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      void runLint();
    }, delay);
  };
  /** A file's kind changed on disk (saved, created, deleted): the config or the file list may have changed. */
  const diskChanged = (uris: readonly string[]): void => {
    const files = uris.map(projectPath);
    const configPaths = [configFile, explicitConfig && 'file' in explicitConfig ? explicitConfig.file : undefined];
    if (files.some((f) => f !== undefined && (CONFIG_FILES.includes(f) || f === 'package.json' || configPaths.includes(path.join(root, f))))) {
      loadProjectConfig();
    }
    discovered = undefined;
    overLimit = undefined;
    schedule();
  };

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? undefined;
    if (folder?.startsWith('file:')) root = fileURLToPath(folder);
    else if (params.rootPath && (path.isAbsolute(params.rootPath) || startDirectory !== undefined)) root = path.resolve(params.rootPath);
    if (root === '') {
      // No workspace folder, and no current directory to stand for one: nothing to lint, said once.
      showError('the client named no workspace folder and the current directory no longer exists; no diagnostics');
      pieces = new GenerationalPieceStore();
    } else {
      pieces = new GenerationalPieceStore(openPieceStore({ root, version: VERSION })?.store);
      explicitConfig = explicitConfigOf(params.initializationOptions, root);
      loadProjectConfig();
    }
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Full, save: { includeText: false } },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        hoverProvider: true,
        definitionProvider: true,
      },
      serverInfo: { name: 'docdrift' },
    };
  });
  connection.onInitialized(() => {
    // New, deleted and renamed files change what is discovered, and the config may change outside the editor.
    void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: '**/*' }] }).catch(() => undefined);
    if (config) schedule(0);
  });
  /**
   * An edit after a pause (no edit in the last `debounceMs`) lints at once: a single change waits
   * for no timer (NeMo Gym README edit, scripts/lsp-latency.mjs: the debounce was 120 of ~540 ms).
   * An edit that follows another sooner is part of a burst: it waits for the pause, so typing does
   * not lint after every key; an edit during a lint asks for one more lint after it (`runLint`),
   * whose overlay is the buffers' texts then.
   */
  const edited = (): void => {
    const now = performance.now();
    const afterPause = now - lastEditAt >= debounceMs;
    lastEditAt = now;
    lastEditAfterPause = afterPause;
    schedule(afterPause ? 0 : debounceMs);
  };
  /** Whether the project file `file` holds exactly `text` on disk now (read with the lint's limits; unreadable: false). Memoized in `memo`. */
  const sameOnDisk = (file: string, text: string, memo: Map<string, boolean>): boolean => {
    // A buffer the server holds no text of (over the read cap) is never the disk's: not read.
    if (unreadableText(text)) return false;
    let same = memo.get(file);
    if (same === undefined) {
      try {
        same = readProjectFile(root, file, { maxBytes: MAX_READ_BYTES }) === text;
      } catch {
        same = false;
      }
      memo.set(file, same);
    }
    return same;
  };

  /**
   * Whether the last lint read `text` as `file` (its content hash, `fileEntries`), or did not read
   * the file at all (not an input). The disk may have changed since without a file event (a client
   * that does not watch files, or whose event comes after the open): an open with the new text then
   * starts a lint; it published the last lint's findings under the new version (s35 sweep D5).
   */
  const readByLastLint = (file: string, text: string): boolean => {
    const entry = fileEntries?.[file];
    return entry === undefined || (unreadableText(text) === undefined && entry.hash === textSha1(text));
  };

  /**
   * Buffers opened with the text their file holds on disk, and not edited since: the open changes
   * nothing a lint reads (its overlay text is the disk's), so it starts none. Their findings are
   * published with the buffer's version by the lint running or waiting (see `openedVersion`), or at
   * once from the last lint's. An editor opening many files at once (a workspace restored, "open
   * all") started a second whole lint after the first, peaking at 650-740 MB where one lint of the
   * same files peaks at about 520 MB (#33 s33 sweep D6); an open of an unchanged page no longer
   * re-lints the project either.
   */
  const openedAsOnDisk = new Set<string>();
  /** Buffers whose open event is being handled (onDidOpen fires, then onDidChangeContent). */
  const opening = new Set<string>();
  /** The version to publish a document's findings with when no buffer was in the lint's snapshot: an open buffer holding the disk's text (what the lint read); else none. */
  const openedVersion = (uri: string): number | null => (openedAsOnDisk.has(uri) ? (documents.get(uri)?.version ?? null) : null);
  /** Publishes the last lint's findings for one document opened as on disk, with its version. */
  const publishOpened = (uri: string, file: string): void => {
    const version = documents.get(uri)?.version;
    if (version === undefined || clientGone) return;
    const diagnostics = last.messages.filter((m) => m.file === file).map((m) => toDiagnostic(m));
    const total = last.over?.get(file);
    if (total !== undefined) diagnostics.unshift(tooManyNote(file, total));
    void connection.sendDiagnostics({ uri, version, diagnostics }).catch(() => undefined);
  };
  documents.onDidOpen((event) => {
    opening.add(event.document.uri);
    const file = projectPath(event.document.uri);
    if (file !== undefined) clientUris.set(file, event.document.uri);
  });
  // Opening a document fires onDidChangeContent too, after onDidOpen (vscode-languageserver's
  // TextDocuments): an open is an edit, unless the buffer holds what the disk does.
  documents.onDidChangeContent((event) => {
    const uri = event.document.uri;
    openedAsOnDisk.delete(uri);
    if (opening.delete(uri)) {
      const file = projectPath(uri);
      const lintAhead = running || timer !== undefined;
      const text = event.document.getText();
      if (file !== undefined && (lintAhead || last.linted) && sameOnDisk(file, text, new Map()) && (lintAhead || readByLastLint(file, text))) {
        openedAsOnDisk.add(uri);
        if (!lintAhead) publishOpened(uri, file);
        return;
      }
    }
    edited();
  });
  // Closing a buffer that held the disk's text changes nothing a lint reads either.
  documents.onDidClose((event) => {
    openedAsOnDisk.delete(event.document.uri);
    opening.delete(event.document.uri);
    const file = projectPath(event.document.uri);
    if (file !== undefined && clientUris.get(file) === event.document.uri) clientUris.delete(file);
    if (file !== undefined && sameOnDisk(file, event.document.getText(), new Map())) return;
    schedule();
  });
  documents.onDidSave((event) => diskChanged([event.document.uri]));
  connection.onDidChangeWatchedFiles((params) => diskChanged(params.changes.map((c) => c.uri)));

  connection.onCodeAction((params): CodeAction[] => {
    if (params.context.only && !params.context.only.some((k) => k === CodeActionKind.QuickFix || CodeActionKind.QuickFix.startsWith(`${k}.`) || k === CodeActionKind.Empty)) return [];
    const file = projectPath(params.textDocument.uri);
    if (file === undefined) return [];
    const actions: CodeAction[] = [];
    // Each disk file is read once per request, not once per fix.
    const diskChecked = new Map<string, boolean>();
    for (const [index, m] of last.messages.entries()) {
      if (m.file !== file || !m.fix || !rangesTouch(findingRange(m), params.range)) continue;
      // --fix does not edit reStructuredText (its edits are Markdown); neither does the quick fix.
      if (isRestructuredText(m.fix.file)) continue;
      const taken = last.snapshot.get(m.fix.file);
      const open = openDocument(m.fix.file);
      // Not read by the lint (nor open then): no text the offsets are known to belong to.
      if (!taken) continue;
      let version = taken.version;
      if (taken.version !== null) {
        // The buffer changed since the lint computed the offsets: the next lint offers the fix again.
        if (!open || open.version !== taken.version) continue;
      } else {
        if (open) {
          // Opened since the lint, which read the file from disk: offered for the buffer's version
          // when it was opened with that very text and not edited since (no lint follows such an
          // open, `openedAsOnDisk`); otherwise the next lint offers it.
          if (!openedAsOnDisk.has(open.uri) || open.getText() !== taken.text) continue;
          version = open.version;
        } else if (!sameOnDisk(m.fix.file, taken.text, diskChecked)) {
          // Read from disk by the lint: offered (unversioned) only while the disk holds that very
          // text, as --fix applies edits only to the text they were computed from (s29 sweep2 D3:
          // two lines prepended on disk after the lint, and the fix corrupted a table's separator row).
          // Read as the lint reads: inside the project, a regular file, at most the run's cap.
          continue;
        }
      }
      const { text } = taken;
      if (m.fix.end > text.length) continue;
      taken.starts ??= lineStarts(text);
      const range = { start: offsetToPosition(text, m.fix.start, taken.starts), end: offsetToPosition(text, m.fix.end, taken.starts) };
      actions.push({
        title: fixTitle(m),
        kind: CodeActionKind.QuickFix,
        diagnostics: [toDiagnostic(m, String(index))],
        isPreferred: true,
        // Versioned: a client applies it only while the buffer is the version the edit was computed for.
        edit: { documentChanges: [{ textDocument: { uri: open?.uri ?? uriOf(m.fix.file), version }, edits: [{ range, newText: m.fix.text }] }] },
      });
    }
    return actions;
  });

  /**
   * The parameter at an LSP position, from the last lint's model; undefined when the buffer
   * changed since that lint (its positions would be off) or nothing known is there.
   */
  const paramAtPosition = (uri: string, position: { line: number; character: number }) => {
    const file = projectPath(uri);
    if (file === undefined || !last.model) return undefined;
    const taken = last.snapshot.get(file);
    const open = openDocument(file);
    // A buffer opened with the disk's text since the lint (no lint follows, `openedAsOnDisk`) holds what it read.
    const asRead = open !== undefined && openedAsOnDisk.has(open.uri) && (taken === undefined || taken.text === open.getText());
    if (open && taken?.version !== open.version && !asRead) return undefined;
    return paramAt(last.model, file, position.line + 1, position.character + 1);
  };
  connection.onHover(async (params) => {
    if (running && !last.model) await lintEnded;
    const found = paramAtPosition(params.textDocument.uri, params.position);
    if (!found || !last.model) return null;
    return { contents: { kind: 'markdown', value: hoverMarkdown(last.model, found) }, range: { start: toLspPosition(found.location.line, found.location.column), end: toLspPosition(found.location.endLine ?? found.location.line, found.location.endColumn ?? found.location.column) } };
  });
  connection.onDefinition(async (params) => {
    if (running && !last.model) await lintEnded;
    const found = paramAtPosition(params.textDocument.uri, params.position);
    if (!found) return null;
    const loc = found.param.location;
    const start = toLspPosition(loc.line, loc.column);
    return { uri: uriOf(loc.file), range: { start, end: loc.endLine !== undefined ? toLspPosition(loc.endLine, loc.endColumn) : start } };
  });

  documents.listen(connection);
  connection.listen();
  return new Promise<void>((resolve) => {
    // The client is gone: nothing more comes, and nobody reads a lint's result. A lint waiting
    // for its debounce is dropped, so no timer holds the process (one that runs ends by itself).
    const ended = (): void => {
      // The connection closes first, as when vscode-jsonrpc's reader saw the end of its stream.
      if (!clientGone) reader.end();
      clientGone = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      resolve();
    };
    input.on('end', ended);
    input.on('close', ended);
  });
}

/**
 * The config file a client names in `initializationOptions.configFile` (the VS Code extension's
 * `docdrift.configPath`, Neovim's `init_options`), resolved from the workspace root `root` as the
 * CLI resolves `--config` from its cwd; undefined when it names none (absent, null or `""`). A
 * value that is not a string is returned as an error to show, not thrown: the server keeps running.
 */
export function explicitConfigOf(options: unknown, root: string): { file: string } | { error: string } | undefined {
  if (options === null || typeof options !== 'object') return undefined;
  const value = (options as { configFile?: unknown }).configFile;
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') return { error: `initializationOptions.configFile must be a path (a string), got ${typeof value === 'object' ? (Array.isArray(value) ? 'an array' : 'an object') : `a ${typeof value}`}` };
  return { file: path.resolve(root, value) };
}

// The process side of `docdrift lsp` (its arguments, the thread and its heap limit) lives in launch.ts,
// which the bin loads without the engine; re-exported for the callers that import it from here.
export { LSP_HEAP_MB, LSP_HELP, LSP_YOUNG_MB, runLanguageServer, type LanguageServerPortMessage, type LanguageServerWorkerData } from './launch.js';

/**
 * Whether a folder on the way from `root` to the project-relative `file` is a symbolic link (a
 * folder that does not exist is not): discovery does not enter linked folders, so a buffer there
 * is not a project file.
 */
function underLinkedFolder(root: string, file: string): boolean {
  const parts = file.split('/').slice(0, -1);
  let dir = root;
  for (const part of parts) {
    dir = path.join(dir, part);
    try {
      if (lstatSync(dir).isSymbolicLink()) return true;
    } catch {
      return false;
    }
  }
  return false;
}

