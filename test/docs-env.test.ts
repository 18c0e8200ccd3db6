/** Tests environment variables read from docs (issue #31): env usages in examples and `.env.example` files as references. */

import { describe, expect, test } from 'vitest';
import { parseDoc } from '../src/docs/parse.js';
import { MAX_ENV_FILE_LINES, parseEnvFile } from '../src/docs/env-file.js';
import { ENVIRONMENT_COMMAND, type InputDiagnostic } from '../src/model/types.js';
import { parseDocs } from '../src/engine/lint.js';
import { docTexts } from '../src/engine/doc-texts.js';
import { NO_CACHE } from '../src/engine/facts.js';
import { DEFAULT_CONFIG } from '../src/config/schema.js';
import type { DocParser } from '../src/docs/bounded-parse.js';

/** Parses `lines` as README.md; its env usages as `NAME=value@line:col-endCol` (`NAME@…` without value). */
function env(lines: string[], file = 'README.md'): string[] {
  const { doc } = parseDoc(file, lines.join('\n'));
  return (doc.envUsages ?? []).map((u) => {
    expect(u.command).toBe(ENVIRONMENT_COMMAND);
    expect(u.syntax).toBe('env');
    expect(u.key).toBe(u.name);
    expect(u.prefix).toBe('');
    return `${u.name}${u.value !== undefined ? `=${u.value}` : ''}@${u.location.line}:${u.location.column}-${u.location.endColumn}`;
  });
}

describe('env usages in shell examples', () => {
  test('assignments before a command, one or several; the command is still read as before', () => {
    const text = [
      '# Quick start',
      '',
      '```bash',
      'OPENAI_API_KEY=sk-xxx QDRANT_URL="http://localhost:6333" mcp-server-qdrant --transport sse',
      '$ LOG_LEVEL=debug uv run my-tool serve key=value --port=8080',
      '```',
    ];
    expect(env(text)).toEqual([
      'OPENAI_API_KEY=sk-xxx@4:1-15',
      'QDRANT_URL=http://localhost:6333@4:23-33',
      'LOG_LEVEL=debug@5:3-12',
    ]);
    const { doc } = parseDoc('README.md', text.join('\n'));
    expect(doc.invocations.map((i) => [i.command, i.args.map((a) => a.text)])).toEqual([
      ['mcp-server-qdrant', ['--transport', 'sse']],
      ['my-tool', ['serve', 'key=value', '--port=8080']],
    ]);
    // Each usage belongs to its command's invocation, in its block.
    expect(doc.envUsages!.map((u) => u.invocation)).toEqual([0, 0, 1]);
    expect(doc.envUsages![0]!.block.location.line).toBe(3);
    expect(doc.envUsages![0]!.raw).toBe('OPENAI_API_KEY=sk-xxx');
  });

  test('export, env, sudo, console prompts and continuation lines', () => {
    expect(env([
      '```console',
      '$ export HF_TOKEN=hf_abc',
      '$ export HF_HOME=/data/hf PIP_NO_CACHE',
      'exported output line FOO=1 is output',
      '$ env -i TOKENIZERS_PARALLELISM=false python train.py',
      '$ sudo -u runner CUDA_VISIBLE_DEVICES=0,1 \\',
      '> torchrun --nproc_per_node=2 train.py',
      '```',
    ])).toEqual([
      'HF_TOKEN=hf_abc@2:10-18',
      'HF_HOME=/data/hf@3:10-17',
      'PIP_NO_CACHE@3:27-39',
      'TOKENIZERS_PARALLELISM=false@5:10-32',
      'CUDA_VISIBLE_DEVICES=0,1@6:18-38',
    ]);
  });

  test('docker run -e / --env / --env=, with and without a value; --env-file and other options skipped', () => {
    expect(env([
      '```sh',
      'docker run -d --rm -p 8000:8000 -e QDRANT_URL=http://qdrant:6333 \\',
      '  --env COLLECTION_NAME=docs -e OPENAI_API_KEY --env-file .env \\',
      '  --env=EMBEDDING_MODEL="BAAI/bge small" -l TRACE=1 ghcr.io/acme/server:latest --debug MODE=x',
      'docker compose -f compose.yml run -e DEBUG=1 worker python -m app',
      'docker exec -it -e TERM=xterm app bash',
      '```',
    ])).toEqual([
      'QDRANT_URL=http://qdrant:6333@2:36-46',
      'COLLECTION_NAME=docs@3:9-24',
      'OPENAI_API_KEY@3:33-47',
      'EMBEDDING_MODEL=BAAI/bge small@4:9-24',
      'DEBUG=1@5:38-43',
      'TERM=xterm@6:20-24',
    ]);
  });

  test('-e/--env NAME=v of any program (claude mcp add), and a docker run after `--`; -e without NAME=v only for docker', () => {
    expect(env([
      '```shell',
      'claude mcp add code-search \\',
      '-e QDRANT_URL="http://localhost:6333" \\',
      '--env=COLLECTION_NAME=code \\',
      '-- uvx mcp-server-qdrant',
      'claude mcp add qdrant -- docker run -i --rm -e QDRANT_API_KEY mcp-server-qdrant',
      'pip install -e . && tox -e PY311 && sed -e "s/A_B=1/C=2/" f && make -e CFLAGS=-O2',
      '```',
    ])).toEqual([
      'QDRANT_URL=http://localhost:6333@3:4-14',
      'COLLECTION_NAME=code@4:7-22',
      'QDRANT_API_KEY@6:48-62',
      'CFLAGS=-O2@7:72-78',
    ]);
  });

  test('cross-env assignments (the npm wrapper), up to its command', () => {
    expect(env(['```sh', 'npx cross-env NODE_ENV=production API_URL=https://x webpack --mode=production MODE=y', '```'])).toEqual([
      'NODE_ENV=production@2:15-23',
      'API_URL=https://x@2:35-42',
    ]);
  });

  test('fish set -x, csh setenv, and `set X=v` pasted in a shell block', () => {
    expect(env([
      '```sh',
      'set -gx ANTHROPIC_API_KEY sk-ant',
      'setenv JAVA_HOME /opt/java',
      'set HTTP_PROXY=http://proxy:3128',
      'set -euxo pipefail',
      'set -e',
      '```',
    ])).toEqual(['ANTHROPIC_API_KEY=sk-ant@2:9-26', 'JAVA_HOME=/opt/java@3:8-17', 'HTTP_PROXY=http://proxy:3128@4:5-15']);
  });

  test('not env usages: lower-case assignments, flags, Hydra overrides after the command, bare assignments, heredocs, quoted strings, prose code', () => {
    expect(env([
      'Set `FOO=1` in your shell, or run `BAR=2 tool`.',
      '',
      '```bash',
      'lr=0.1 python train.py',
      'python train.py --flag=value MODEL=gpt trainer.max_epochs=3 +DATA_DIR=/x',
      'MODEL_NAME=llama',
      'echo "FOO=bar" | tool \'BAZ=qux\'',
      'bash -c "INNER=1 tool"',
      'cat > .env <<EOF',
      'HEREDOC_VAR=1',
      'EOF',
      'export -p',
      'declare SHELL_ONLY=1',
      '```',
    ])).toEqual([]);
  });

  test('a block that does not read as shell gives none; a python block neither', () => {
    expect(env([
      '```python',
      'os.environ["API_KEY"] = "x"',
      'API_KEY="x"',
      '```',
    ])).toEqual([]);
  });
});

describe('env usages in .env, PowerShell and batch blocks', () => {
  test('dotenv/env blocks and blocks titled .env: every KEY=value line, commented-out ones left out', () => {
    expect(env([
      '## Configuration',
      '',
      '```dotenv',
      '# Required',
      'OPENAI_API_KEY=sk-...',
      'export QDRANT_URL="http://localhost:6333" # local',
      '# LOG_LEVEL=info',
      'lower_case=1',
      '```',
      '',
      '```bash title=".env.local"',
      'DATABASE_URL=postgres://u:p@db:5432/app',
      'PORT=',
      '```',
      '',
      '```ini filename=.env',
      '  INDENTED: yes',
      '```',
    ])).toEqual([
      'OPENAI_API_KEY=sk-...@5:1-15',
      'QDRANT_URL=http://localhost:6333@6:8-18',
      'DATABASE_URL=postgres://u:p@db:5432/app@12:1-13',
      'PORT=@13:1-5',
      'INDENTED=yes@17:3-11',
    ]);
  });

  test('a .env block is numbered as its own invocation, from 200,000', () => {
    const { doc } = parseDoc('README.md', ['```env', 'A_B=1', 'C_D=2', '```', '```env', 'E_F=3', '```'].join('\n'));
    expect(doc.envUsages!.map((u) => [u.name, u.invocation, u.block.lang, u.raw])).toEqual([
      ['A_B', 200_000, 'env', 'A_B=1'],
      ['C_D', 200_000, 'env', 'C_D=2'],
      ['E_F', 200_001, 'env', 'E_F=3'],
    ]);
  });

  test('PowerShell $env: and batch set / setx', () => {
    expect(env([
      '```powershell',
      'PS C:\\> $env:OPENAI_API_KEY = "sk-xxx"',
      '$Env:DEBUG="1"; my-tool run',
      '$env:path = "x"',
      '```',
      '```cmd',
      'set HF_HOME=D:\\hf',
      'set "PYTHONUTF8=1"',
      'C:\\work> setx AZURE_KEY abc',
      'set /p X=Prompt',
      '```',
    ])).toEqual([
      'OPENAI_API_KEY=sk-xxx@2:14-28',
      'DEBUG=1@3:6-11',
      'HF_HOME=D:\\hf@7:5-12',
      'PYTHONUTF8=1@8:6-16',
      'AZURE_KEY=abc@9:15-24',
    ]);
  });
});

describe('env usages in YAML and JSON blocks', () => {
  test('docker compose environment: map and list forms, at any depth', () => {
    expect(env([
      '```yaml',
      'services:',
      '  app:',
      '    image: acme/app',
      '    environment:',
      '      QDRANT_URL: http://qdrant:6333',
      '      "COLLECTION_NAME": docs',
      '      EMPTY:',
      '  worker:',
      '    environment:',
      '      - LOG_LEVEL=debug',
      '      - "API_KEY=${API_KEY}"',
      '      - PASSTHROUGH',
      '      - lower=1',
      '```',
    ])).toEqual([
      'QDRANT_URL=http://qdrant:6333@6:7-17',
      'COLLECTION_NAME=docs@7:8-23',
      'EMPTY@8:7-12',
      'LOG_LEVEL=debug@11:9-18',
      'API_KEY=${API_KEY}@12:10-17',
      'PASSTHROUGH@13:9-20',
    ]);
  });

  test('GitHub workflow env: maps and Kubernetes env: name/value lists; a scalar environment is none', () => {
    expect(env([
      '```yml',
      'env:',
      '  NODE_ENV: production',
      'jobs:',
      '  lint:',
      '    environment: production',
      '    steps:',
      '      - uses: acme/docdrift@v1',
      '        env:',
      '          GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}',
      '---',
      'spec:',
      '  containers:',
      '    - name: app',
      '      env:',
      '        - name: REDIS_HOST',
      '          value: redis',
      '        - name: SECRET_KEY',
      '          valueFrom: { secretKeyRef: { name: s, key: k } }',
      '```',
    ])).toEqual([
      'NODE_ENV=production@3:3-11',
      'GITHUB_TOKEN=${{ secrets.GITHUB_TOKEN }}@10:11-23',
      'REDIS_HOST=redis@16:17-27',
      'SECRET_KEY@18:17-27',
    ]);
  });

  test('a devcontainer.json containerEnv / remoteEnv', () => {
    expect(env(['```jsonc', '{ "containerEnv": { "HF_HOME": "/cache" }, "remoteEnv": { "PATH": "${containerEnv:PATH}:/x" } }', '```'])).toEqual([
      'HF_HOME=/cache@2:22-29',
      'PATH=${containerEnv:PATH}:/x@2:60-64',
    ]);
  });

  test('an MCP server config in JSON: "env" map', () => {
    expect(env([
      '```json',
      '{ "mcpServers": { "qdrant": {',
      '  "command": "uvx", "args": ["mcp-server-qdrant"],',
      '  "env": { "QDRANT_URL": "http://localhost:6333", "QDRANT_SEARCH_LIMIT": 10 } } } }',
      '```',
    ])).toEqual(['QDRANT_URL=http://localhost:6333@4:13-23', 'QDRANT_SEARCH_LIMIT=10@4:52-71']);
  });

  test('YAML that does not parse, or has no env key, gives none; TOML is not read', () => {
    expect(env(['```yaml', 'environment: [unclosed', '```', '```yaml', 'settings:', '  FOO: 1', '```', '```toml', '[env]', 'FOO = "1"', '```'])).toEqual([]);
  });
});

describe('.env.example files as a reference (parseEnvFile)', () => {
  test('comments above as description, trailing comments, export, quotes, empty values, commented-out keys', () => {
    const text = [
      '# Qdrant connection',
      '# (the server URL)',
      'QDRANT_URL=http://localhost:6333',
      '',
      '# Not a description: a blank line follows',
      '',
      'export COLLECTION_NAME="my docs"  # the collection',
      "QUOTED_HASH='a # b'",
      'API_KEY=',
      '# Optional: how many results',
      '# QDRANT_SEARCH_LIMIT=10',
      '#EMBEDDING_MODEL="sentence-transformers/all-MiniLM-L6-v2"',
      '# see https://example.com/docs=1 for more',
      'MULTI="line one',
      'line two"',
      'AFTER_MULTI=1 # trailing',
      'COLON_FORM: yes',
      'not an assignment line',
      'export ONLY_EXPORTED',
    ].join('\n');
    const { rows, diagnostics } = parseEnvFile('.env.example', text);
    expect(diagnostics).toEqual([]);
    expect(rows.map((r) => [r.names[0], r.default, r.description, `${r.location.line}:${r.location.column}-${r.location.endColumn}`])).toEqual([
      ['QDRANT_URL', 'http://localhost:6333', 'Qdrant connection (the server URL)', '3:1-11'],
      ['COLLECTION_NAME', 'my docs', 'the collection', '7:8-23'],
      ['QUOTED_HASH', 'a # b', undefined, '8:1-12'],
      ['API_KEY', undefined, undefined, '9:1-8'],
      ['QDRANT_SEARCH_LIMIT', '10', 'Optional: how many results', '11:3-22'],
      ['EMBEDDING_MODEL', 'sentence-transformers/all-MiniLM-L6-v2', undefined, '12:2-17'],
      // The comment right above is its description; its `docs=1` is prose, not a commented-out key.
      ['MULTI', 'line one\nline two', 'see https://example.com/docs=1 for more', '14:1-6'],
      ['AFTER_MULTI', '1', 'trailing', '16:1-12'],
      ['COLON_FORM', 'yes', undefined, '17:1-11'],
      ['ONLY_EXPORTED', undefined, undefined, '19:8-21'],
    ]);
    expect(rows[0]!.rawName).toBe('QDRANT_URL');
    expect(rows[0]!.links).toEqual([]);
    expect(rows[0]!.defaultLocation).toEqual({ file: '.env.example', line: 3, column: 12, endLine: 3, endColumn: 33 });
    expect(rows[1]!.defaultLocation).toMatchObject({ line: 7, column: 24, endColumn: 33 });
  });

  test('banner and section-title comments are not descriptions', () => {
    const { rows } = parseEnvFile('.env.example', [
      '# ============================================',
      '# World Monitor — Environment Variables',
      '# ============================================',
      'FIRST=1',
      '# ------ Telegram OSINT (Railway relay) ------',
      '# Telegram MTProto keys (free): https://my.telegram.org/apps',
      'TELEGRAM_API_ID=',
    ].join('\n'));
    expect(rows.map((r) => [r.names[0], r.description])).toEqual([
      ['FIRST', undefined],
      ['TELEGRAM_API_ID', 'Telegram MTProto keys (free): https://my.telegram.org/apps'],
    ]);
  });

  test('CRLF line ends and a byte-order mark', () => {
    const { rows } = parseEnvFile('env.template', '\uFEFF# The port\r\nPORT=8080\r\nHOST="0.0.0.0"\r\n');
    expect(rows.map((r) => [r.names[0], r.default, r.description, r.location.line, r.location.column])).toEqual([
      ['PORT', '8080', 'The port', 2, 1],
      ['HOST', '0.0.0.0', undefined, 3, 1],
    ]);
  });

  test('double-quoted values expand \\n like dotenv; single-quoted ones do not; an unclosed quote reads as unquoted', () => {
    const { rows } = parseEnvFile('.env.sample', 'A="x\\ny"\nB=\'x\\ny\'\nC="unclosed # c\nD=4\n');
    expect(rows.map((r) => [r.names[0], r.default])).toEqual([
      ['A', 'x\ny'],
      ['B', 'x\\ny'],
      ['C', '"unclosed'],
      ['D', '4'],
    ]);
  });

  test('a 5 MB file is read in bounded time, up to the limits, with a warning naming where it stopped', () => {
    const line = 'SOME_VARIABLE_NAME=some value that is long enough # and a comment\n';
    const text = line.repeat(Math.ceil((5 * 1024 * 1024) / line.length));
    const started = performance.now();
    const { rows, diagnostics } = parseEnvFile('big/.env.example', text);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(rows.length).toBeGreaterThan(1000);
    expect(rows.length).toBeLessThanOrEqual(MAX_ENV_FILE_LINES);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ ruleId: 'parse-error', severity: 'warn', location: { file: 'big/.env.example', column: 1 } });
    expect(diagnostics[0]!.location.line).toBe(rows.length + 1);
    expect(diagnostics[0]!.message).toMatch(/read up to line \d+ only/);
  });

  test('one very long line and binary-looking text never throw', () => {
    expect(() => parseEnvFile('.env.example', `A=${'x'.repeat(2_000_000)}`)).not.toThrow();
    expect(parseEnvFile('.env.example', '\u0000\u0001=\n=\n==\n').rows).toEqual([]);
  });
});

describe('the docs stage hands the example env files to the engine (DocFacts.envFiles)', () => {
  test('each readable env file with its rows, in discovery order; an unreadable one is left out; over-limit warnings reach the diagnostics', () => {
    const texts: Record<string, string> = {
      '.env.example': '# The URL\nQDRANT_URL=http://localhost:6333\n# QDRANT_SEARCH_LIMIT=10\n',
      'deploy/env.template': 'REGION=eu\n',
      'big/.env.sample': 'A=1\n'.repeat(MAX_ENV_FILE_LINES + 10),
    };
    const read = (file: string): string | undefined => texts[file];
    const diagnostics: InputDiagnostic[] = [];
    const files = { sources: [], docs: [], packaging: [], yaml: [], envFiles: ['.env.example', 'big/.env.sample', 'deploy/env.template', 'gone/.env.example'] };
    const facts = parseDocs(files, DEFAULT_CONFIG, [], docTexts(read, read, NO_CACHE), diagnostics, {} as DocParser);
    expect(facts.envFiles!.map((f) => [f.file, f.rows.length])).toEqual([
      ['.env.example', 2],
      ['big/.env.sample', MAX_ENV_FILE_LINES],
      ['deploy/env.template', 1],
    ]);
    expect(facts.envFiles![0]!.rows.map((r) => [r.names[0], r.default, r.description])).toEqual([
      ['QDRANT_URL', 'http://localhost:6333', 'The URL'],
      ['QDRANT_SEARCH_LIMIT', '10', undefined],
    ]);
    expect(diagnostics.map((d) => `${d.location.file}:${d.location.line} ${d.severity}`)).toEqual([`big/.env.sample:${MAX_ENV_FILE_LINES + 1} warn`]);
    // Their text is available for fixes, like a document's.
    expect(facts.text('deploy/env.template')).toBe('REGION=eu\n');
  });
});
