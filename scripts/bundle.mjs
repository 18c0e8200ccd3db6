#!/usr/bin/env node
/**
 * Bundles the `docdrift` bin with rolldown (rolldown.config.mjs), after `tsc` has written
 * dist/src: `npm run build` and `prepare` run it. It calls rolldown's JavaScript API, which
 * prints nothing on success (the rolldown command prints its chunk table even with
 * `--logLevel silent`, which cluttered `npm start`'s output). A warning is printed; an error
 * exits 1 with rolldown's message.
 *
 * Usage: node scripts/bundle.mjs   (from any directory; writes <package>/dist/cli)
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The config's paths are relative to the package root.
process.chdir(root);
const { default: config } = await import('../rolldown.config.mjs');
try {
  await build({
    ...config,
    onLog(level, log) {
      if (level === 'warn') console.warn(`bundle: ${log.message}`);
    },
  });
} catch (error) {
  console.error(`bundle: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
