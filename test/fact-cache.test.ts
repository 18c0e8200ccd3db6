/**
 * The fact cache (src/engine/facts.ts) is the one layer between the stages and the per-file
 * store: a second `lint()` over the same texts with the same store answers every fact from it,
 * of every kind of piece, and gives the same findings as a run without a store.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lint } from '../src/api.js';
import { defaultConfig } from '../src/config/schema.js';
import { discoverFiles } from '../src/engine/discover.js';
import { MemoryPieceStore } from '../src/engine/pieces.js';
import { removeTempDirs, tempProject } from './helpers.js';

/** A {@link MemoryPieceStore} that counts hits and misses by kind of piece (the key's `<kind>:` prefix). */
class CountingStore extends MemoryPieceStore {
  readonly hitKinds = new Map<string, number>();
  readonly missKinds = new Map<string, number>();
  override get<T>(key: string): T | undefined {
    const value = super.get<T>(key);
    const kind = key.slice(0, key.indexOf(':'));
    const counts = value === undefined ? this.missKinds : this.hitKinds;
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
    return value;
  }
  reset(): void {
    this.hitKinds.clear();
    this.missKinds.clear();
  }
}

/** A project with every kind of fact: Python classes and argparse flags, a TypeScript bin reading the environment, pages. */
function project(): string {
  return tempProject({
    'pyproject.toml': '[project]\nname = "tool"\n[project.scripts]\ntool = "tool.cli:main"\n',
    'tool/__init__.py': '',
    'tool/config.py': 'from dataclasses import dataclass\n\n@dataclass\nclass ToolConfig:\n    seed: int = 1\n',
    'tool/cli.py': 'import argparse\n\ndef main() -> None:\n    p = argparse.ArgumentParser()\n    p.add_argument("--port", type=int, default=80)\n    p.parse_args()\n',
    'web/package.json': '{"name": "web", "bin": {"web": "cli.ts"}}\n',
    'web/cli.ts': 'import { Command } from "commander";\nconst program = new Command("web");\nprogram.option("--host <host>", "host", "localhost");\nexport const level = process.env.WEB_LEVEL;\nprogram.parse();\n',
    'README.md': '# tool\n\n## `tool`\n\n| Parameter | Description |\n| --- | --- |\n| `port` | Port. |\n| `colour` | Colour. |\n\n```bash\ntool --port 8 --shade 2\nweb --host x --size 3\nWEB_LEVEL=debug web\n```\n',
    'docs/guide.md': '# Guide\n\nRun `tool --port 9`.\n',
  });
}

/** The findings of a result, as text. */
function findings(result: Awaited<ReturnType<typeof lint>>): string[] {
  return result.messages.map((m) => `${m.file}:${m.line}:${m.column} ${m.ruleId} ${m.message}`);
}

describe('the fact cache under lint()', () => {
  afterAll(removeTempDirs);

  it('keyed by the texts (no run-cache hashes, as `--fix`): a second lint answers every per-file kind from the store, and equals a lint without one', async () => {
    const root = project();
    const config = defaultConfig();
    const store = new CountingStore();
    const first = await lint({ root, config, pieces: store });
    // Every kind of per-file fact was asked for, and computed, on the first lint.
    expect([...store.missKinds.keys()].sort()).toEqual(['doc', 'py-flags', 'py-scan', 'ts', 'ts-env']);
    expect(store.hitKinds.size).toBe(0);
    store.reset();
    const second = await lint({ root, config, pieces: store });
    expect([...store.hitKinds.keys()].sort()).toEqual(['doc', 'py-flags', 'py-scan', 'ts', 'ts-env']);
    expect(store.missKinds.size).toBe(0);
    const uncached = await lint({ root, config });
    expect(findings(second)).toEqual(findings(first));
    expect(findings(second)).toEqual(findings(uncached));
    expect(findings(uncached).length).toBeGreaterThan(0);
  });

  it('keyed by the run cache\'s hashes: a second lint answers the whole extraction, the pages\' triage and their parses from the store, reading no code', async () => {
    const root = project();
    const config = defaultConfig();
    const discovered = await discoverFiles(root, config.sources, config.docs, config.ignore);
    const hashes = new Map<string, string>();
    for (const file of [...discovered.sources, ...discovered.docs, ...discovered.packaging, ...(discovered.programs ?? [])]) {
      hashes.set(file, createHash('sha1').update(readFileSync(path.join(root, file))).digest('hex'));
    }
    const store = new CountingStore();
    const first = await lint({ root, config, discovered, hashes, pieces: store });
    expect(store.missKinds.get('code')).toBe(1);
    store.reset();
    const read = new Set<string>();
    const second = await lint({ root, config, discovered, hashes, pieces: store, readFiles: read });
    expect([...store.hitKinds.keys()].sort()).toEqual(['code', 'doc', 'doc-triage']);
    expect(store.missKinds.size).toBe(0);
    // No code file is read: the whole extraction is one stored fact.
    expect([...read].filter((file) => !file.endsWith('.md'))).toEqual([]);
    expect(findings(second)).toEqual(findings(first));
  });
});
