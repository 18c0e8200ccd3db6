/**
 * A reference that says it lists a selection (src/docs/lead.ts) is a partial list: one run note
 * names it, also under a heading the config ties with `commands.<name>.sections` (the config says
 * where the reference is); `commands.<name>.complete` requires every parameter there.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { lint, ruleIds } from '../src/api.js';

const DIR = path.resolve(import.meta.dirname, '../fixtures/layouts/lead-selection/valid');

async function run(extra: object) {
  const { config } = loadConfig(DIR, undefined, ruleIds);
  return lint({ root: DIR, config: { ...config, ...extra } });
}

describe('a declared selection', () => {
  it('reports no missing row and says so once', async () => {
    const result = await run({});
    expect(result.messages.filter((m) => m.ruleId === 'reference-param-missing')).toEqual([]);
    const notes = result.notes.filter((n) => n.includes('lists a selection'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('("common options", README.md:5 "grinder options")');
    expect(notes[0]).toContain('documents 4 of its 6 parameters');
  });

  it('stays a selection under a heading the config names: the config says where, not that it is complete', async () => {
    const { config } = loadConfig(DIR, undefined, ruleIds);
    const result = await run({ commands: { ...config.commands, grinder: { sections: ['grinder options'] } } });
    expect(result.messages.filter((m) => m.ruleId === 'reference-param-missing')).toEqual([]);
    const notes = result.notes.filter((n) => n.includes('lists a selection'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('Set `commands."grinder".complete` to true to require every parameter.');
  });

  it('requires every parameter under a configured heading with `complete`', async () => {
    const { config } = loadConfig(DIR, undefined, ruleIds);
    const result = await run({ commands: { ...config.commands, grinder: { sections: ['grinder options'], complete: true } } });
    const missing = result.messages.filter((m) => m.ruleId === 'reference-param-missing').map((m) => m.data?.name);
    expect(missing.sort()).toEqual(['log-file', 'retention']);
    expect(result.notes.some((n) => n.includes('lists a selection'))).toBe(false);
  });
});
