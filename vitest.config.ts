import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/pre-commit.test.ts'] } },
      // The pre-commit test runs npm install and tsc for minutes: after the rest, so the
      // timing assertions of other tests do not share the CPU with it.
      { extends: true, test: { name: 'pre-commit', include: ['test/pre-commit.test.ts'], sequence: { groupOrder: 1 } } },
    ],
  },
});
