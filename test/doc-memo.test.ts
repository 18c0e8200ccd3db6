/**
 * The link stage keeps each page's reference inference and example usages for the next model
 * (src/link/doc-memo.ts, issue #36): the language server's store hands an unchanged page out again,
 * and the code facts too while no code file changes. What a kept value read from the rest of the
 * project (another page's headings naming a command, the commands the code and the config define)
 * must make it be computed again when that changes. Here a project is linted through a sequence of
 * edits with one store, as the server lints it (the open buffers as a hashed overlay), and every
 * lint must find what a fresh lint of the same texts finds.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GenerationalPieceStore } from '../src/lsp/pieces.js';
import { lint, ruleIds } from '../src/api.js';
import { loadConfig } from '../src/config/load.js';
import { discoverFiles } from '../src/engine/discover.js';
import { hashFiles, inputFiles } from '../src/engine/cache.js';

const root = mkdtempSync(path.join(tmpdir(), 'docdrift-doc-memo-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const write = (file: string, text: string): void => {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
};

const cli = (flags: string[]): string =>
  [
    'import argparse',
    '',
    '',
    'def main() -> None:',
    '    parser = argparse.ArgumentParser(prog="tool")',
    ...flags.map((f) => `    parser.add_argument("--${f}", help="Sets ${f}.")`),
    '    parser.parse_args()',
    '',
  ].join('\n');

const table = (flags: string[]): string => ['| Option | Description |', '| --- | --- |', ...flags.map((f) => `| \`--${f}\` | Sets ${f}. |`)].join('\n');

write('pyproject.toml', '[project]\nname = "tool"\nversion = "1.0.0"\n\n[project.scripts]\ntool = "tool.cli:main"\n');
write('tool/__init__.py', '');
write('tool/cli.py', cli(['alpha', 'beta', 'gamma', 'delta']));
// A guide whose options table no heading ties to `tool`: inferred by content while no page names it.
// One row (`--color`) is no flag of the code: a heading elsewhere naming `tool` makes the table
// not clean enough to be one more of its sections; the code gaining `--color` makes it clean.
write('docs/guide.md', `# Guide\n\nRun it:\n\n\`\`\`bash\ntool --alpha 1 --beta 2\n\`\`\`\n\n## Options\n\n${table(['alpha', 'beta', 'gamma', 'delta', 'color'])}\n`);
write('README.md', '# tool\n\n```bash\ntool --alpha 1 --epsilon 2\n```\n');

/** Texts of the open buffers, as the server's overlay, step by step (each step adds to the last). */
const steps: Array<Record<string, string>> = [
  {},
  // A heading naming the command on another page: `tool` is headed, the guide's table is judged again.
  { 'README.md': `# tool\n\n\`\`\`bash\ntool --alpha 1 --epsilon 2\n\`\`\`\n\n## \`tool\`\n\n${table(['alpha'])}\n` },
  // The code gains `--epsilon` and `--color` (an open code buffer): the README example's usage is
  // known now, and the guide's table is all `tool`'s flags.
  { 'tool/cli.py': cli(['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'color']) },
  // The guide's table loses rows and its example changes.
  { 'docs/guide.md': `# Guide\n\nRun it:\n\n\`\`\`bash\ntool --gamma 1 --zeta 2\n\`\`\`\n\n## Options\n\n${table(['gamma', 'delta'])}\n` },
  // The heading goes again; the code loses `--delta`.
  { 'README.md': '# tool\n\n```bash\ntool --alpha 1 --epsilon 2 --delta 3\n```\n', 'tool/cli.py': cli(['alpha', 'beta', 'gamma', 'epsilon', 'color']) },
];

const summary = (messages: ReadonlyArray<{ file?: string; line?: number; column?: number; ruleId?: string | null; message: string }>): string[] =>
  messages.map((m) => `${m.file}:${m.line}:${m.column} ${m.ruleId} ${m.message}`);

describe('per-page values kept from one model to the next', () => {
  it('every lint of an edit sequence with one store finds what a fresh lint of the same texts finds', async () => {
    const { config, file } = loadConfig(root, undefined, [...ruleIds]);
    const discovered = await discoverFiles(root, config.sources, config.docs, config.ignore);
    const pieces = new GenerationalPieceStore();
    const overlay = new Map<string, string>();
    const texts: Array<Map<string, string>> = [];
    const kept: string[][] = [];
    // The whole sequence with the store first: the memo keeps one code side (the last), so a fresh
    // lint in between would make every page be computed again.
    for (const step of steps) {
      for (const [f, text] of Object.entries(step)) overlay.set(f, text);
      texts.push(new Map(overlay));
      // As the server hashes its inputs: an open buffer by its text (src/lsp/server.ts `inputHashes`).
      const hashes = new Map(
        Object.entries(hashFiles(root, inputFiles(discovered), undefined).entries).map(([f, e]) => {
          const text = overlay.get(f);
          return [f, text === undefined ? e.hash : `text:${createHash('sha1').update(text).digest('hex')}`];
        }),
      );
      // Twice: the second lint reuses every page's kept values.
      for (let again = 0; again < 2; again++) {
        const result = await lint({ root, config, ...(file ? { configFile: file } : {}), discovered, overlay: new Map(overlay), pieces, hashes, overlayHashed: true });
        pieces.nextRun();
        expect(result.failures).toEqual([]);
        kept.push(summary(result.messages));
      }
    }
    const seen: string[][] = [];
    for (const [i, overlayOfStep] of texts.entries()) {
      const fresh = summary((await lint({ root, config, ...(file ? { configFile: file } : {}), discovered, overlay: overlayOfStep })).messages);
      expect(kept[2 * i]).toEqual(fresh);
      expect(kept[2 * i + 1]).toEqual(fresh);
      seen.push(fresh);
    }
    // The edits change what is found (the sequence tests something), step after step.
    for (let i = 1; i < seen.length; i++) expect(seen[i]).not.toEqual(seen[i - 1]);
  }, 60_000);
});
