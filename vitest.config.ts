import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    // Hooks remove the tests' temporary projects (`removeTempDirs`): on a loaded 2-core machine,
    // the language server tests' afterAll took over the default 10 s once, failing a passing suite.
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/pre-commit.test.ts', 'test/package.test.ts'] } },
      // The pre-commit and package tests run npm install (and tsc) for minutes: after the rest,
      // so the timing assertions of other tests do not share the CPU with them.
      { extends: true, test: { name: 'install', include: ['test/pre-commit.test.ts', 'test/package.test.ts'], sequence: { groupOrder: 1 } } },
    ],
  },
});
