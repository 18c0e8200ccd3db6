/**
 * Issue #31 end to end: env vars read by Python code, an env table and a `.env.example` file,
 * linted and fixed through the API as the CLI does.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixProject, lint } from '../src/api.js';
import { loadConfig } from '../src/config/load.js';
import { removeTempDirs, tempProject } from './helpers.js';

afterAll(removeTempDirs);

const SETTINGS = `import os

PORT = int(os.getenv("APP_PORT", "8000"))
HOST = os.environ.get("APP_HOST", "127.0.0.1")


def run() -> None:
    """Serve."""
    token = os.environ["APP_TOKEN"]
    print(HOST, PORT, token)
`;

function project(envExample: string, readme: string): string {
  return tempProject({
    'pyproject.toml': '[project]\nname = "webapp"\nversion = "0.1.0"\n\n[project.scripts]\nwebapp = "webapp.main:run"\n',
    'webapp/__init__.py': '',
    'webapp/main.py': SETTINGS,
    '.env.example': envExample,
    'README.md': readme,
  });
}

const configOf = (root: string) => loadConfig(root).config;

describe('env vars end to end', () => {
  it('reports a variable missing from .env.example and --fix appends it; a second run is clean', async () => {
    const root = project('# Port to listen on\nAPP_PORT=8000\nAPP_TOKEN=change-me', '# webapp\n\nCopy `.env.example` to `.env`.\n');
    const before = await lint({ root, config: configOf(root) });
    const found = before.messages.map((m) => [m.ruleId, m.data.name, m.file]);
    expect(found).toEqual([['reference-param-missing', 'APP_HOST', '.env.example']]);
    await fixProject({ root, config: configOf(root) });
    expect(readFileSync(path.join(root, '.env.example'), 'utf8')).toBe('# Port to listen on\nAPP_PORT=8000\nAPP_TOKEN=change-me\nAPP_HOST=127.0.0.1\n');
    const after = await lint({ root, config: configOf(root) });
    expect(after.messages).toEqual([]);
  });

  it('an example that sets a misspelt variable is reported with the variable the code reads', async () => {
    const root = project('APP_PORT=8000\nAPP_HOST=0.0.0.0\nAPP_TOKEN=x\n', '# webapp\n\n```sh\nAPP_PROT=9000 webapp\n```\n');
    const result = await lint({ root, config: configOf(root) });
    expect(result.messages.map((m) => [m.ruleId, m.data.name, m.data.suggestion, m.line])).toEqual([['example-param-unknown', 'APP_PROT', 'APP_PORT', 4]]);
  });
});
