/** Sizing of the document worker's heap (src/docs/bounded-parse.ts); its budgets are exercised by test/bad-input.test.ts. */
import { describe, expect, it } from 'vitest';
import { LARGE_RUN_FILES, workerYoungGenerationMb, YOUNG_GENERATION_MB } from '../src/docs/bounded-parse.js';

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
