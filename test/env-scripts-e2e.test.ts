/**
 * Issue #31, end to end: a project whose shell script reads a documented variable and whose
 * Dockerfile sets one the settings read. No finding; without the Dockerfile the variable it set
 * is demanded; a run through the cache (code facts reused after a document edit, recomputed after
 * a script edit) gives what a cold run gives.
 */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { lint, lintWithCache, ruleIds } from '../src/api.js';
import type { DriftMessage } from '../src/model/rule.js';
import { removeTempDirs, tempProject } from './helpers.js';

const scratch: string[] = [];
afterAll(() => {
  removeTempDirs();
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

const PROJECT: Record<string, string> = {
  'pyproject.toml': '[project]\nname = "app"\nversion = "0.1.0"\n\n[project.scripts]\napp = "app.main:main"\n',
  'app/__init__.py': '',
  'app/settings.py': [
    'from pydantic_settings import BaseSettings',
    '',
    '',
    'class Settings(BaseSettings):',
    '    app_url: str = "http://localhost:8000"',
    '    app_mode: str = "dev"',
    '',
  ].join('\n'),
  'app/main.py': 'from .settings import Settings\n\n\ndef main() -> None:\n    print(Settings())\n',
  'bin/run.sh': '#!/bin/sh\nmkdir -p "${APP_CACHE_DIR:-/tmp/app}"\nexec app\n',
  'docker/Dockerfile': 'FROM python:3.12\nCOPY . /app\nENV APP_MODE=prod\nCMD ["app"]\n',
  'README.md': [
    '# app',
    '',
    '## Environment variables',
    '',
    '| Variable | Description | Default |',
    '|----------|-------------|---------|',
    '| `APP_URL` | Public URL | `http://localhost:8000` |',
    '| `APP_CACHE_DIR` | Cache folder of the launcher | `/tmp/app` |',
    '',
  ].join('\n'),
};

const envFindings = (messages: readonly DriftMessage[]) =>
  messages.filter((m) => m.ruleId?.startsWith('reference-param')).map((m) => `${m.ruleId}/${m.messageId} ${String(m.data?.['name'])}`);

describe('env vars read by scripts and set by the image', () => {
  it('no finding with them; without the Dockerfile the variable it set is missing', async () => {
    const root = tempProject(PROJECT);
    const { config } = loadConfig(root, undefined, ruleIds);
    expect(envFindings((await lint({ root, config })).messages)).toEqual([]);
    rmSync(path.join(root, 'docker/Dockerfile'));
    expect(envFindings((await lint({ root, config })).messages)).toEqual(['reference-param-missing/missingEnv APP_MODE']);
    // And without the script, the variable only it read is read nowhere.
    rmSync(path.join(root, 'bin/run.sh'));
    expect(envFindings((await lint({ root, config })).messages).sort()).toEqual(['reference-param-missing/missingEnv APP_MODE', 'reference-param-unknown/staleEnv APP_CACHE_DIR']);
  });

  it('a cached run gives the cold run\'s findings: code facts reused after a document edit, recomputed after a script edit', async () => {
    const root = tempProject(PROJECT);
    const cache = mkdtempSync(path.join(tmpdir(), 'docdrift-shellenv-cache-'));
    scratch.push(cache);
    const { config } = loadConfig(root, undefined, ruleIds);
    const base = { root, config, cache: true, location: cache, version: '1', codeFingerprint: 'x' };
    const first = await lintWithCache(base);
    expect(first.cache.status).toBe('miss');
    expect(envFindings(first.messages)).toEqual([]);
    // A document edit: the run misses, the code facts (with the scripts' names and the image's variables) are reused.
    appendFileSync(path.join(root, 'README.md'), '\nMore words.\n');
    const docEdit = await lintWithCache(base);
    expect(docEdit.cache.status).toBe('miss');
    expect(envFindings(docEdit.messages)).toEqual(envFindings((await lint({ root, config })).messages));
    expect(envFindings(docEdit.messages)).toEqual([]);
    // A script edit: the Dockerfile no longer sets APP_MODE, the script no longer reads APP_CACHE_DIR.
    writeFileSync(path.join(root, 'docker/Dockerfile'), 'FROM python:3.12\nCMD ["app"]\n');
    writeFileSync(path.join(root, 'bin/run.sh'), '#!/bin/sh\nexec app\n');
    const scriptEdit = await lintWithCache(base);
    expect(scriptEdit.cache.status).toBe('miss');
    const cold = envFindings((await lint({ root, config })).messages).sort();
    expect(cold).toEqual(['reference-param-missing/missingEnv APP_MODE', 'reference-param-unknown/staleEnv APP_CACHE_DIR']);
    expect(envFindings(scriptEdit.messages).sort()).toEqual(cold);
    const again = await lintWithCache(base);
    expect(again.cache.status).toBe('hit');
    expect(envFindings(again.messages).sort()).toEqual(cold);
  });
});
