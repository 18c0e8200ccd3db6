#!/usr/bin/env node
/**
 * Latency of `docdrift lsp` (issue #36): starts the bundled server on a project, opens one
 * document, then sends N full-text edits (alternately the text with one appended line and the
 * original; in a code file the line is a comment), each after the diagnostics of the previous one arrived, and measures the time from
 * sending `didChange` to receiving `publishDiagnostics` for that document at that version. The
 * time includes any wait of the server's debounce (src/lsp/server.ts DEBOUNCE_MS: an edit after a pause lints at once), as an editor sees it;
 * the server's own lint time is printed too (its log lines). A benchmark, not a test.
 *
 * Usage: node scripts/lsp-latency.mjs ROOT DOC [N=20]   (DOC project-relative; npm run build first)
 * `DOCDRIFT_BIN`: another build's dist/cli/docdrift.js (to compare builds). `LSP_NODE_ARGS`: options for the server's `node` (space-separated), e.g. `--cpu-prof --cpu-prof-dir=DIR`.
 * `LSP_PAUSE_MS`: wait this long after each edit's diagnostics before the next edit (default 0): the
 * server then finishes each lint (the rest of the project after the open page's findings), as when
 * its author reads the diagnostics, and the server's lint times are its whole lints'.
 * `LSP_RENAME=OLD:NEW` with `LSP_WATCH=PAGE` (DOC then a code file, PAGE a project-relative page):
 * the edits rename every whole-word `OLD` in DOC to `NEW` and back, as an editor's rename does, and
 * the time measured is from `didChange` to the diagnostics of PAGE (opened too) differing from its
 * diagnostics before the rename (rename), or equal to them again (back): "a Python config field
 * renamed: the stale doc findings appear".
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';

const [rootArg, doc, nArg] = process.argv.slice(2);
if (!rootArg || !doc) {
  console.error('usage: node scripts/lsp-latency.mjs ROOT DOC [N]');
  process.exit(2);
}
const root = path.resolve(rootArg);
const n = Number(nArg ?? 20);
const bin = process.env.DOCDRIFT_BIN ? path.resolve(process.env.DOCDRIFT_BIN) : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/cli/docdrift.js');
const child = spawn(process.execPath, [...(process.env.LSP_NODE_ARGS ? process.env.LSP_NODE_ARGS.split(' ') : []), bin, 'lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
const uri = pathToFileURL(path.join(root, doc)).href;
const lintMs = [];
let waiting;
const [renameFrom, renameTo] = (process.env.LSP_RENAME ?? '').split(':');
const watchDoc = process.env.LSP_WATCH;
if (renameFrom && (!renameTo || !watchDoc)) {
  console.error('LSP_RENAME=OLD:NEW needs NEW and LSP_WATCH=PAGE');
  process.exit(2);
}
const watchUri = watchDoc ? pathToFileURL(path.join(root, watchDoc)).href : undefined;
/** The watched page's diagnostics as one comparable string (code and message of each, sorted). */
const signature = (p) => p.diagnostics.map((d) => `${d.code} ${d.message}`).sort().join('\n');
let watchWaiting;
let watchLast;
connection.onNotification('textDocument/publishDiagnostics', (p) => {
  if (watchUri && p.uri === watchUri) {
    watchLast = p;
    if (watchWaiting?.test(p)) watchWaiting.resolve(p);
  }
  if (waiting && p.uri === uri && p.version === waiting.version) waiting.resolve(p);
});
connection.onNotification('window/logMessage', (p) => {
  const m = /^docdrift: linted .* in (\d+) ms/.exec(p.message);
  if (m) lintMs.push(Number(m[1]));
  if (process.env.LSP_LOG) console.error(p.message);
});
connection.onNotification('window/showMessage', (p) => console.error(`server: ${p.message}`));
connection.onRequest('client/registerCapability', () => null);
connection.listen();
// A line that changes the document and nothing it defines: a paragraph in a page, a comment in code.
const edit = (v) => (/\.(?:py|[cm]?[jt]sx?)$/.test(doc) ? `\n${doc.endsWith('.py') ? '#' : '//'} edited ${v}\n` : `\nAn edited line ${v}.\n`);
/** Resolves when the document's diagnostics at `version` arrive; exits 1 after 120 s (an internal error publishes nothing). */
const until = (version) =>
  new Promise((resolve) => {
    const timer = setTimeout(() => {
      console.error(`no diagnostics for version ${version} within 120 s (run with LSP_LOG=1 to see the server's log)`);
      child.kill();
      process.exit(1);
    }, 120_000);
    waiting = { version, resolve: (p) => (clearTimeout(timer), resolve(p)) };
  });

await connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(root).href, capabilities: {} });
await connection.sendNotification('initialized', {});
const text = readFileSync(path.join(root, doc), 'utf8');
let t = performance.now();
let got = until(1);
await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: doc.endsWith('.py') ? 'python' : /\.[cm]?[jt]sx?$/.test(doc) ? 'typescript' : 'markdown', version: 1, text } });
await got;
let baseline;
if (watchUri) {
  const seen = new Promise((resolve) => {
    watchWaiting = { test: () => true, resolve };
  });
  watchLast = undefined;
  await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: watchUri, languageId: 'markdown', version: 1, text: readFileSync(path.join(root, watchDoc), 'utf8') } });
  baseline = signature(await seen);
  watchWaiting = undefined;
}
const first = performance.now() - t;
const renamed = renameFrom ? text.replace(new RegExp(`\\b${renameFrom.replace(/[^\w]/g, '\\$&')}\\b`, 'g'), renameTo) : undefined;
if (renamed === text) {
  console.error(`no whole-word ${renameFrom} in ${doc}`);
  process.exit(2);
}
let newFindings = 0;
const times = [];
/**
 * CPU time (user + system), ms, of each thread of the server process, by thread id, from Linux's
 * /proc (10 ms steps): less swayed by a loaded machine than wall time; undefined elsewhere. The
 * server lints on a thread of its own (src/lsp/lsp-worker.ts): per edit, the thread whose CPU time
 * grew most is that one.
 */
const threadCpuMs = () => {
  try {
    const out = new Map();
    for (const tid of readdirSync(`/proc/${child.pid}/task`)) {
      try {
        const stat = readFileSync(`/proc/${child.pid}/task/${tid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        out.set(tid, ((Number(fields[11]) + Number(fields[12])) * 1000) / 100);
      } catch {
        // The thread ended.
      }
    }
    return out;
  } catch {
    return undefined;
  }
};
/** The most CPU time one thread spent between two {@link threadCpuMs} readings. */
const busiestThreadMs = (before, after) => Math.max(0, ...[...after].map(([tid, ms]) => ms - (before.get(tid) ?? 0)));
const cpus = [];
const pauseMs = Number(process.env.LSP_PAUSE_MS ?? 0);
for (let v = 2; v <= n + 1; v++) {
  if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  const rename = renamed !== undefined && v % 2 === 0;
  got = watchUri
    ? new Promise((resolve) => {
        const timer = setTimeout(() => {
          console.error(`${watchDoc}'s diagnostics did not ${rename ? 'change' : 'come back'} within 120 s`);
          child.kill();
          process.exit(1);
        }, 120_000);
        watchWaiting = { test: (p) => (signature(p) === baseline) !== rename, resolve: (p) => (clearTimeout(timer), resolve(p)) };
      })
    : until(v);
  const c0 = threadCpuMs();
  t = performance.now();
  await connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: v }, contentChanges: [{ text: renamed !== undefined ? (rename ? renamed : text) : v % 2 === 0 ? `${text}${edit(v)}` : text }] });
  const published = await got;
  if (rename) newFindings = published.diagnostics.length;
  times.push(performance.now() - t);
  const c1 = threadCpuMs();
  if (c0 !== undefined && c1 !== undefined) cpus.push(busiestThreadMs(c0, c1));
}
await connection.sendRequest('shutdown');
const pid = child.pid;
const rss = (() => {
  try {
    return /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  } catch {
    return undefined;
  }
})();
await connection.sendNotification('exit');
const sorted = [...times].sort((a, b) => a - b);
const median = sorted[Math.floor(sorted.length / 2)];
const edits = lintMs.slice(-n).sort((a, b) => a - b);
if (watchUri) {
  const half = (even) => times.filter((_, i) => (i % 2 === 0) === even).sort((a, b) => a - b);
  const med = (xs) => xs[Math.floor(xs.length / 2)]?.toFixed(0);
  const renames = half(true);
  console.log(
    `${watchDoc}: ${newFindings} diagnostics after the rename (${baseline.split('\n').filter(Boolean).length} before); ` +
      `rename -> its diagnostics changed: median ${med(renames)} ms, max ${renames.at(-1)?.toFixed(0)} ms; back -> restored: median ${med(half(false))} ms`,
  );
}
console.log(
  `open -> diagnostics ${first.toFixed(0)} ms (first lint, cold); edit -> diagnostics over ${n} edits: median ${median.toFixed(0)} ms, ` +
    `min ${sorted[0].toFixed(0)}, max ${sorted.at(-1).toFixed(0)} (includes any debounce wait: an edit after a pause lints at once); server lint median ${edits[Math.floor(edits.length / 2)]} ms; ` +
    `${cpus.length > 0 ? `server lint-thread CPU per edit median ${[...cpus].sort((a, b) => a - b)[Math.floor(cpus.length / 2)].toFixed(0)} ms; ` : ''}` +
    `peak RSS ${rss ? `${(Number(rss) / 1024).toFixed(0)} MB` : 'unknown'}`,
);
