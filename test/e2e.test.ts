/** End to end: spawns the built CLI (package.json `bin`: the bundle `dist/cli/docdrift.js`) on the bundled example as a user would. */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BIN } from './helpers.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = CLI_BIN;
const EXAMPLE = path.join(ROOT, 'fixtures/example-python');

function run(args: string[], cwd = ROOT) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface JsonResult {
  file: string;
  line: number;
  column: number;
  ruleId: string;
  messageId: string;
  severity: string;
  data: Record<string, string>;
  related: Array<{ file: string; line: number }>;
}

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

describe('docdrift on the bundled example', () => {
  it('reports resume_from_cache in every README example and as missing from both reference tables', () => {
    const { code, stdout } = run(['--root', EXAMPLE, '--format', 'json']);
    expect(code).toBe(1);
    const results = (JSON.parse(stdout) as { results: JsonResult[] }).results;
    const undocumented = results.filter((r) => r.ruleId === 'example-param-undocumented');
    expect(undocumented.map((r) => [r.file, r.line, r.data.name])).toEqual([
      ['README.md', 25, 'resume_from_cache'],
      ['benchmarks/aime24/README.md', 10, 'resume_from_cache'],
      ['benchmarks/gpqa/README.md', 10, 'resume_from_cache'],
      ['resources_servers/weather/README.md', 14, 'resume_from_cache'],
    ]);
    // The definition in code and the reference section are related locations.
    expect(undocumented[0]!.related.map((r) => r.file)).toEqual([
      'nemo_gym/rollout_collection.py',
      'docs/reference/cli-commands.mdx',
    ]);
    const missing = results.filter((r) => r.ruleId === 'reference-param-missing');
    expect(missing.map((r) => [r.line, r.data.command, r.data.name])).toEqual([
      [23, 'ng_collect_rollouts', 'resume_from_cache'],
      [50, 'ng_e2e_collect_rollouts', 'resume_from_cache'],
    ]);
    const byRule = (id: string) => results.filter((r) => r.ruleId === id).map((r) => r.data.name);
    expect(byRule('example-param-unknown')).toEqual(['num_repeat']);
    expect(byRule('reference-param-unknown')).toEqual(['max_retries']);
    expect(byRule('reference-default-mismatch')).toEqual(['split']);
  });

  it('prints the stylish report with a summary line', () => {
    const { code, stdout } = run(['--root', EXAMPLE]);
    expect(code).toBe(1);
    expect(stdout).toContain('benchmarks/aime24/README.md');
    expect(stdout).toMatch(/resume_from_cache.*example-param-undocumented/);
    expect(stdout).toMatch(/✖ \d+ problems \(\d+ errors?, \d+ warnings?\)/);
  });

  it('reports only findings in the files given as paths', () => {
    const { code, stdout } = run(['--root', EXAMPLE, '--format', 'json', path.join(EXAMPLE, 'benchmarks/gpqa/README.md')]);
    expect(code).toBe(1);
    const files = new Set((JSON.parse(stdout) as { results: JsonResult[] }).results.map((r) => r.file));
    expect([...files]).toEqual(['benchmarks/gpqa/README.md']);
  });

  it('exits 0 with rules turned off, and 2 with a bad config naming the key', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-e2e-'));
    temps.push(dir);
    cpSync(EXAMPLE, dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'docdrift.config.json'),
      JSON.stringify({
        rules: Object.fromEntries(
          [
            'example-param-undocumented',
            'example-param-unknown',
            'example-param-unexplained',
            'reference-param-missing',
            'reference-param-unknown',
            'reference-default-mismatch',
            'reference-type-mismatch',
          ].map((id) => [id, 'off']),
        ),
      }),
    );
    expect(run(['--root', dir]).code).toBe(0);
    writeFileSync(path.join(dir, 'docdrift.config.json'), JSON.stringify({ rules: { 'example-param-unknwon': 'off' } }));
    const bad = run(['--root', dir]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('example-param-unknwon');
    expect(bad.stderr).not.toMatch(/\n\s+at /);
    writeFileSync(
      path.join(dir, 'docdrift.config.json'),
      JSON.stringify({ rules: { 'example-param-unknown': ['warn', { reportUnknownNamespace: true }] } }),
    );
    const badOption = run(['--root', dir]);
    expect(badOption.code).toBe(2);
    expect(badOption.stderr).toContain('rules.example-param-unknown.reportUnknownNamespace');
    expect(badOption.stderr).toContain('reportUnknownNamespaces');
  });

  it('accepts a directory as a path, and refuses a path that does not exist', () => {
    const dir = run(['--root', EXAMPLE, '--format', 'json', 'benchmarks'], EXAMPLE);
    expect(dir.code).toBe(1);
    const files = new Set((JSON.parse(dir.stdout) as { results: JsonResult[] }).results.map((r) => r.file));
    expect([...files].sort()).toEqual(['benchmarks/aime24/README.md', 'benchmarks/gpqa/README.md']);
    const missing = run(['--root', EXAMPLE, 'no-such-file.md'], EXAMPLE);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file or directory: no-such-file.md');
  });

  it('takes --max-warnings -1 as written in the help', () => {
    expect(run(['--root', EXAMPLE, '--max-warnings', '-1', '--quiet']).code).toBe(1);
  });

  it('exits 2 when the config maps a command to a class that does not exist', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-e2e-'));
    temps.push(dir);
    cpSync(EXAMPLE, dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'docdrift.config.json'),
      JSON.stringify({ commands: { ng_collect_rollouts: { config: 'RolloutCollectionConfg' } } }),
    );
    const r = run(['--root', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('commands.ng_collect_rollouts.config');
    expect(r.stderr).toContain('"RolloutCollectionConfig"');
  });

  it('says so on stderr when no command was found, and exits 2 since nothing was checked (0 with --allow-unchecked)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-e2e-'));
    temps.push(dir);
    writeFileSync(path.join(dir, 'README.md'), '# Nothing here\n');
    const r = run(['--root', dir]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('no command found');
    expect(r.stderr).toContain('nothing was checked: no command or config class was found');
    expect(run(['--root', dir, '--allow-unchecked']).code).toBe(0);
  });

  it('exits 2 on an unknown option', () => {
    const r = run(['--frmat', 'json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--frmat');
  });

  it('docdrift lsp: a session (initialize, open, shutdown, exit) publishes the example\'s findings and ends with exit code 0 and nothing on stderr (Node 22 and 24 printed an unsettled top-level await warning at every exit)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-e2e-'));
    temps.push(dir);
    cpSync(EXAMPLE, dir, { recursive: true });
    const readme = path.join(dir, 'README.md');
    const frame = (message: object): string => {
      const body = JSON.stringify({ jsonrpc: '2.0', ...message });
      return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    };
    const uri = `file://${readme}`;
    const child = spawn(process.execPath, [BIN, 'lsp', '--stdio'], { cwd: dir, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const published = /"method":"textDocument\/publishDiagnostics","params":\{"uri":"[^"]*README\.md","version":2,"diagnostics":\[\{/;
    const ended = new Promise<number | null>((resolve) => child.on('close', resolve));
    const diagnosed = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no diagnostics on README.md within 60 s; stdout: ${stdout.slice(0, 2000)}; stderr: ${stderr}`)), 60_000);
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
        if (published.test(stdout)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    child.stdin.write(frame({ id: 1, method: 'initialize', params: { processId: null, rootUri: `file://${dir}`, capabilities: {} } }));
    child.stdin.write(frame({ method: 'initialized', params: {} }));
    // Not the disk's text (an unchanged open starts no lint): one more line.
    child.stdin.write(frame({ method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'markdown', version: 2, text: `${readFileSync(readme, 'utf8')}\n` } } }));
    await diagnosed;
    child.stdin.write(frame({ id: 2, method: 'shutdown' }));
    // The input stays open: the server ends at `exit`, not at the end of its input.
    child.stdin.write(frame({ method: 'exit' }));
    expect(await ended).toBe(0);
    expect(stdout).toContain('"id":2,"result":null');
    expect(stderr).toBe('');
  }, 90_000);
});
