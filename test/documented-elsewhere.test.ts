/**
 * "Documented elsewhere" (issue #29): a parameter its command's reference has no row for is not
 * missing when a page the reference defers to documents it, even a page no `reference` glob
 * matches (jest's CLI page: "Every one of Jest's Configuration options can also be specified
 * through the CLI", with `reference` naming the CLI page only). The same-page and linked-page
 * kinds have layout twins (fixtures/layouts/documented-same-page, documented-linked-page).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { lint, ruleIds } from '../src/api.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/layouts');

async function run(dir: string, extra: object) {
  const { config } = loadConfig(dir, undefined, ruleIds);
  return lint({ root: dir, config: { ...config, ...extra } });
}

describe('a page the reference defers to', () => {
  it('documents the options it lists even when no `reference` glob matches it', async () => {
    const dir = path.join(FIXTURES, 'delegated-config-page/valid');
    const result = await run(dir, { reference: ['docs/cli.md'] });
    const missing = result.messages.filter((m) => m.ruleId === 'reference-param-missing' && m.data?.command === 'grinder');
    expect(missing).toEqual([]);
    // The CLI page's own section was read (the check ran).
    expect(result.model.sections.some((s) => s.file === 'docs/cli.md' && s.rows.length > 0)).toBe(true);
  });

  it('still reports an option the deferred page does not list', async () => {
    const dir = path.join(FIXTURES, 'delegated-config-page/invalid');
    const result = await run(dir, { reference: ['docs/cli.md'] });
    const missing = result.messages.filter((m) => m.ruleId === 'reference-param-missing').map((m) => `${m.data?.command} ${m.data?.name}`);
    expect(missing).toEqual(['grinder timer']);
  });
});

describe('rows written unlike the command', () => {
  it('a key row on a linked page does not document a flag', async () => {
    const dir = path.join(FIXTURES, 'documented-linked-page/invalid');
    const result = await run(dir, {});
    const missing = result.messages.filter((m) => m.ruleId === 'reference-param-missing').map((m) => m.data?.name);
    // `descale` is only a key of the service file there; `--pressure` has a flag row.
    expect(missing).toEqual(['descale']);
  });
});
