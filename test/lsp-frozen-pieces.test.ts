/**
 * The language server's piece store hands out again, from one lint to the next, the values it
 * read back for parsed documents, their segments and Python scans (src/lsp/pieces.ts
 * `LIVE_KINDS`). A stage that wrote into one (a name pushed onto a reference row, a link's target
 * resolved in place) would leave its write in the next lint. Here every such value is frozen
 * (`DOCDRIFT_TEST_FREEZE_PIECES=1`, set before the store's module loads), and every twin of the
 * framework, layout, help-text and rule fixtures is linted three times with one store: the second and
 * third lints read the frozen values, and must neither throw nor find anything else than the first.
 * Each lint gets the inputs' content hashes as the server computes them (`hashFiles`), so the
 * code facts too come from the store, as after an edit of a page in the editor.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

process.env.DOCDRIFT_TEST_FREEZE_PIECES = '1';
const { GenerationalPieceStore } = await import('../src/lsp/pieces.js');
const { lint, ruleIds } = await import('../src/api.js');
const { loadConfig } = await import('../src/config/load.js');
const { discoverFiles } = await import('../src/engine/discover.js');
const { hashFiles, inputFiles } = await import('../src/engine/cache.js');

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');

/** Every project of the fixture families: `<family>/<name>/{valid,invalid}` or `<family>/<name>`, and `rules/<rule>/{valid,invalid}/<case>`. */
function projects(): string[] {
  const out: string[] = [];
  for (const rule of readdirSync(path.join(FIXTURES, 'rules')).sort()) {
    for (const twin of ['valid', 'invalid']) {
      const dir = path.join(FIXTURES, 'rules', rule, twin);
      if (existsSync(dir)) out.push(...readdirSync(dir).sort().map((c) => path.join(dir, c)));
    }
  }
  for (const family of ['frameworks', 'layouts', 'help-text']) {
    for (const name of readdirSync(path.join(FIXTURES, family)).sort()) {
      const dir = path.join(FIXTURES, family, name);
      const twins = ['valid', 'invalid'].map((t) => path.join(dir, t)).filter((d) => existsSync(d));
      out.push(...(twins.length > 0 ? twins : [dir]));
    }
  }
  return [path.join(FIXTURES, 'example-python'), ...out];
}

const summary = (messages: ReadonlyArray<{ file?: string; line?: number; column?: number; ruleId?: string | null; message: string }>): string[] =>
  messages.map((m) => `${m.file}:${m.line}:${m.column} ${m.ruleId} ${m.message}`);

describe('lints that share a store of frozen values find what the first lint found', () => {
  const all = projects();
  beforeAll(() => {
    expect(all.length).toBeGreaterThan(100);
  });
  it.each(all.map((dir) => [path.relative(FIXTURES, dir), dir]))('%s', async (_name, dir) => {
    const { config, file } = loadConfig(dir, undefined, [...ruleIds]);
    const discovered = await discoverFiles(dir, config.sources, config.docs, config.ignore);
    const hashes = new Map(Object.entries(hashFiles(dir, inputFiles(discovered), undefined).entries).map(([f, e]) => [f, e.hash]));
    const pieces = new GenerationalPieceStore();
    const first = await lint({ root: dir, config, ...(file ? { configFile: file } : {}), pieces, discovered, hashes });
    pieces.nextRun();
    for (let run = 0; run < 2; run++) {
      const again = await lint({ root: dir, config, ...(file ? { configFile: file } : {}), pieces, discovered, hashes });
      pieces.nextRun();
      expect(again.failures).toEqual([]);
      expect(summary(again.messages)).toEqual(summary(first.messages));
    }
    // The later lints did read stored values (the store answered).
    expect(pieces.hits).toBeGreaterThan(0);
  });
});
