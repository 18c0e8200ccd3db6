/**
 * Sizing of the document worker's heap (src/docs/bounded-parse.ts), and what the run's parse
 * ceiling counts (the compiled parser, dist/src, written by `npm run build`: the worker exists only
 * there); its budgets are exercised end to end by test/bad-input.test.ts.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LARGE_RUN_FILES, workerYoungGenerationMb, YOUNG_GENERATION_MB } from '../src/docs/bounded-parse.js';

const COMPILED = path.resolve(import.meta.dirname, '../dist/src/docs/bounded-parse.js');
type Module = typeof import('../src/docs/bounded-parse.js');

describe('workerYoungGenerationMb', () => {
  it('gives a NeMo-Gym-sized run (767 documents, 1,052 sources) the large young generation', () => {
    expect(workerYoungGenerationMb(767 + 1052)).toBe(YOUNG_GENERATION_MB.large);
  });

  it('gives a run of LARGE_RUN_FILES or more files, or of an unknown size, the small one', () => {
    expect(workerYoungGenerationMb(LARGE_RUN_FILES - 1)).toBe(YOUNG_GENERATION_MB.large);
    expect(workerYoungGenerationMb(LARGE_RUN_FILES)).toBe(YOUNG_GENERATION_MB.small);
    expect(workerYoungGenerationMb(4200 + 8010)).toBe(YOUNG_GENERATION_MB.small);
    expect(workerYoungGenerationMb(undefined)).toBe(YOUNG_GENERATION_MB.small);
    expect(YOUNG_GENERATION_MB.small).toBeLessThan(YOUNG_GENERATION_MB.large);
  });
});

describe.runIf(process.platform === 'linux')('the run\'s parse cost (RUN_PARSE_CEILING_MS, #33 s46 sweep H7)', () => {
  it('counts the worker\'s thread and V8\'s helper threads while the run waits, and starts again with startRun (a language server lint)', async () => {
    expect(existsSync(COMPILED), 'npm run build first').toBe(true);
    const { createDocParser } = (await import(pathToFileURL(COMPILED).href)) as Module;
    const parser = await createDocParser({ files: 10 });
    try {
      // 300 lines of block quotes and lists nested 48 deep (60 KB): about 0.9 s on the worker's
      // thread and 0.6 s of garbage collection on the helper threads, idle.
      const page = `# q\n\n${Array.from({ length: 300 }, (_, j) => `${'> - '.repeat(48)}a${j}\n`).join('')}`;
      const outcome = parser.parse('docs/q.md', page, { doc: true, directives: false });
      expect(outcome.diagnostics.filter((d) => d.message.startsWith('Not read'))).toEqual([]);
      const first = parser.overruns!();
      expect(first.parseMs).toBeGreaterThan(100);
      // The helper threads' part: garbage collection the worker's thread clock does not see.
      expect(first.costMs).toBeGreaterThan(first.parseMs);
      expect(first.ceilingSkipped).toBe(0);
      parser.startRun!();
      expect(parser.overruns!().costMs).toBeLessThan(50);
      parser.parse('docs/r.md', '# r\n\nText.\n', { doc: true, directives: false });
      const second = parser.overruns!();
      expect(second.costMs).toBeLessThan(first.costMs);
      // The worker's own count is not reset: `--debug` prints the run's.
      expect(second.parseMs).toBeGreaterThanOrEqual(first.parseMs);
    } finally {
      parser.close();
    }
  }, 60_000);
});
