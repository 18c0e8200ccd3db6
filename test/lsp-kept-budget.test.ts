/**
 * The language server's kept parse results under a byte budget (#33 s47 sweep K3): it kept every
 * page's parse outcome and the segments of its last parse from one lint to the next, ~1.3 MB per
 * 100 KB page on top of the lint's own peak (150 pages on disk: `cache 193.8 MB`, 617-629 MB of
 * RSS). Here, with the budget set to 200 KB (DOCDRIFT_TEST_KEPT_DOCUMENT_BYTES): six 40 KB pages
 * on disk, three lints; what the server keeps stays within the budget, pieces are let go, and the
 * pages let go are parsed again with the same findings as the first, cold lint. Spawns the bundled
 * bin (needs `npm run build`).
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BIN, copyToTemp, removeTempDirs } from './helpers.js';

const BAD_BASE = path.resolve(import.meta.dirname, '../fixtures/bad-input/_base');

afterAll(removeTempDirs);

/** A page of about `kb` KB of prose naming `tool` (40 KB: parsed in segments, over 32 KB), with one stale example at its end. */
function page(i: number, kb = 40): string {
  let text = `# Page ${i}\n\nUse \`tool\` for this.\n\n`;
  for (let p = 0; text.length < kb * 1024; p++) text += `Paragraph ${p} of page ${i} says *something* about [the tool](../README.md) and \`tool\` in plain words.\n\n`;
  return `${text}\`\`\`bash\ntool +sed=${i}\n\`\`\`\n`;
}

/** Starts the bundled server in `root` (pieces frozen, extra `env`) with a client that records what it publishes and logs. */
function startServer(root: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [CLI_BIN, 'lsp', '--stdio'], { cwd: root, stdio: 'pipe', env: { ...process.env, DOCDRIFT_TEST_FREEZE_PIECES: '1', ...env } });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const published: PublishDiagnosticsParams[] = [];
  const logs: string[] = [];
  connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
    published.push(params);
  });
  connection.onNotification('window/logMessage', (params: { message: string }) => {
    logs.push(params.message);
  });
  connection.listen();
  const until = async (ok: () => boolean): Promise<void> => {
    for (let i = 0; i < 2400 && !ok() && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 25));
  };
  const lints = (): string[] => logs.filter((l) => l.startsWith('docdrift: linted'));
  return { child, connection, exited, published, logs, stderr: (): string => stderr, until, lints };
}

describe('docdrift lsp: kept parse results under a byte budget', () => {
  it('keeps at most its budget between lints, lets pieces go, and parses the pages let go again with the findings of a cold lint', async () => {
    const root = copyToTemp(BAD_BASE);
    const pages = [0, 1, 2, 3, 4, 5].map((i) => `docs/p${i}.md`);
    for (const [i, file] of pages.entries()) writeFileSync(path.join(root, file), page(i));
    const uri = (file: string): string => pathToFileURL(path.join(root, file)).href;
    const { child, connection, exited, published, stderr, until, lints } = startServer(root, { DOCDRIFT_TEST_KEPT_DOCUMENT_BYTES: String(200 * 1024) });
    const findings = (file: string, ok: (p: PublishDiagnosticsParams) => boolean = () => true): string[] | undefined =>
      published
        .filter((p) => p.uri === uri(file) && ok(p))
        .pop()
        ?.diagnostics.map((d) => `${d.range.start.line + 1}:${String(d.code)} ${d.message}`);
    await connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(root).href, capabilities: {} });
    await connection.sendNotification('initialized', {});
    const readme = (v: number): string => `# tool\n\n\`\`\`bash\ntool +seed=${v} +name=demo\n\`\`\`\n\nSee the [reference](docs/reference.md#tool).\n`;
    await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: uri('README.md'), languageId: 'markdown', version: 1, text: readme(1) } });
    await until(() => lints().length >= 1 && pages.every((file) => findings(file) !== undefined));
    const cold = pages.map((file) => findings(file));
    // Two more lints (README edits): every page's outcome is needed again, the ones let go parsed again.
    for (const version of [2, 3]) {
      await connection.sendNotification('textDocument/didChange', { textDocument: { uri: uri('README.md'), version }, contentChanges: [{ text: readme(version) }] });
      await until(() => lints().length >= version);
    }
    // Opened as on disk: published from the last lint's findings.
    for (const file of pages) await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: uri(file), languageId: 'markdown', version: 7, text: page(pages.indexOf(file)) } });
    await until(() => pages.every((file) => findings(file, (p) => p.version === 7) !== undefined));
    const warm = pages.map((file) => findings(file, (p) => p.version === 7));
    const answered = child.exitCode === null ? await Promise.race([connection.sendRequest('shutdown').then(() => true), exited.then(() => false)]) : false;
    if (answered) await connection.sendNotification('exit');
    const code = await exited;
    connection.dispose();
    expect(stderr()).toBe('');
    expect(lints().length).toBeGreaterThanOrEqual(3);
    // Each lint's log line: what it kept (MB, one decimal) and how many pieces went for the budget.
    const kept = lints().map((l) => Number(/cache ([\d.]+) MB/.exec(l)?.[1]));
    const letGo = lints().map((l) => Number(/(\d+) document pieces let go/.exec(l)?.[1]));
    expect(kept.every((mb) => mb <= 0.2)).toBe(true);
    expect(letGo[letGo.length - 1]).toBeGreaterThanOrEqual(6);
    expect(cold).toEqual(pages.map((_, i) => [`${page(i).split('\n').length - 2}:example-param-unknown \`sed\` is not a parameter of \`tool\` (config: ToolConfig). Did you mean \`seed\`?`]));
    expect(warm).toEqual(cold);
    expect(answered).toBe(true);
    expect(code).toBe(0);
  }, 180_000);

  // #33 s49 K3: a page's outcome, once read back, was held twice between lints: as the value every
  // later lint is handed (the model's) and as the serialised bytes it was read from, never read
  // again (150 pages of 100 KB: ~60 MB of RSS). Pages of 20 KB (parsed whole: no segments).
  it('holds the outcomes read back as values only, not also as their serialised bytes', async () => {
    const root = copyToTemp(BAD_BASE);
    const pages = [0, 1, 2, 3, 4, 5].map((i) => `docs/p${i}.md`);
    for (const [i, file] of pages.entries()) writeFileSync(path.join(root, file), page(i, 20));
    const uri = (file: string): string => pathToFileURL(path.join(root, file)).href;
    const { child, connection, exited, published, logs, stderr, until, lints } = startServer(root);
    const findings = (file: string): string[] | undefined =>
      published
        .filter((p) => p.uri === uri(file))
        .pop()
        ?.diagnostics.map((d) => `${d.range.start.line + 1}:${String(d.code)}`);
    await connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(root).href, capabilities: {} });
    await connection.sendNotification('initialized', {});
    const readme = (v: number): string => `# tool\n\n\`\`\`bash\ntool +seed=${v} +name=demo\n\`\`\`\n`;
    await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: uri('README.md'), languageId: 'markdown', version: 1, text: readme(1) } });
    await until(() => lints().length >= 1);
    for (const version of [2, 3]) {
      await connection.sendNotification('textDocument/didChange', { textDocument: { uri: uri('README.md'), version }, contentChanges: [{ text: readme(version) }] });
      await until(() => lints().length >= version);
    }
    const answered = child.exitCode === null ? await Promise.race([connection.sendRequest('shutdown').then(() => true), exited.then(() => false)]) : false;
    if (answered) await connection.sendNotification('exit');
    const code = await exited;
    connection.dispose();
    expect(stderr()).toBe('');
    expect(lints()).toHaveLength(3);
    // Each lint's log line: what it kept, and how much of that as serialised bytes (KB from MB with one decimal: 0.1 MB steps).
    const kept = lints().map((l) => /cache ([\d.]+) MB \(([\d.]+) MB of it serialised/.exec(l));
    expect(kept.every((m) => m !== null)).toBe(true);
    const [cache, serialised] = [kept.map((m) => Number(m![1])), kept.map((m) => Number(m![2]))];
    // The cold lint stored every piece as bytes; each later one read the pages' outcomes back, which are then held as values only.
    expect(serialised[0]).toBe(cache[0]);
    expect(cache[2]).toBeGreaterThanOrEqual(0.3);
    expect(serialised[2]).toBeLessThanOrEqual(cache[2]! / 4);
    // The outcomes handed out again still give each page its finding.
    expect(pages.map((file) => findings(file))).toEqual(pages.map((_, i) => [`${page(i, 20).split('\n').length - 2}:example-param-unknown`]));
    expect(answered).toBe(true);
    expect(code).toBe(0);
  }, 180_000);
});
