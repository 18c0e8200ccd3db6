/**
 * `shutdown` during a long lint (#33 s45 sweep G1): the server reads the client's messages while
 * its lint runs, and a `shutdown` (or `exit`) makes the lint give way at its next check, so the
 * request is answered at once and no lint starts after it. Before, a cold lint of slow pages held
 * `shutdown` unanswered until it ended (12 pages of hard line breaks: answered 35 s after it was
 * sent, then 0.14 s).
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BIN } from './helpers.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('docdrift lsp: shutdown during a lint', () => {
  it('is answered within seconds while slow pages are parsed, and the server exits 0 on exit', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'docdrift-lsp-shutdown-'));
    dirs.push(root);
    cpSync(path.join(ROOT, 'fixtures/bad-input/_base'), root, { recursive: true });
    // Each page parses within its own budget in about a second (hard line breaks cost micromark
    // ~40 µs a line); twelve of them keep the first lint busy for well over ten seconds.
    const page = `# tool\n\n\`\`\`bash\ntool +seed=1\n\`\`\`\n\n${'a\\\n'.repeat(14_000)}${'b  \n'.repeat(14_000)}`;
    for (let i = 0; i < 12; i++) writeFileSync(path.join(root, `docs/p${i}.md`), page);
    const child = spawn(process.execPath, [CLI_BIN, 'lsp', '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const send = (message: unknown): void => {
      const body = JSON.stringify(message);
      child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    };
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const until = async (test: () => boolean, ms: number): Promise<boolean> => {
      for (const end = Date.now() + ms; Date.now() < end; ) {
        if (test()) return true;
        await new Promise((r) => setTimeout(r, 20));
      }
      return test();
    };
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: `file://${root}`, capabilities: {} } });
    send({ jsonrpc: '2.0', method: 'initialized', params: {} });
    send({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: `file://${root}/README.md`, languageId: 'markdown', version: 1, text: readFileSync(path.join(root, 'README.md'), 'utf8') } } });
    expect(await until(() => out.includes('"id":1,"result"'), 30_000)).toBe(true);
    // The first lint is under way (its pages take 12 s or more of the parser's time).
    await new Promise((r) => setTimeout(r, 2000));
    const sent = Date.now();
    send({ jsonrpc: '2.0', id: 2, method: 'shutdown' });
    expect(await until(() => out.includes('"id":2,"result"'), 20_000)).toBe(true);
    const waited = Date.now() - sent;
    send({ jsonrpc: '2.0', method: 'exit' });
    expect(await exited).toBe(0);
    // Within seconds even on a loaded machine; the lint alone runs far longer.
    expect(waited).toBeLessThan(8_000);
    expect(out).toContain('lint given up after');
    expect(out).toContain('the client asked the server to shut down');
  }, 120_000);
});
