/** The run note for examples whose check ended at a word naming no sub-command of a group (issue #29, item 4). */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load.js';
import { lint, ruleIds } from '../src/api.js';

const CASE = path.resolve(import.meta.dirname, '../fixtures/rules/example-param-unknown/invalid/unknown-subcommand-word');

describe('unknown sub-command words', () => {
  it('are listed once in the notes, except a near miss (a finding) and a default group\'s (a plugin\'s)', async () => {
    const { config } = loadConfig(CASE, undefined, ruleIds);
    const result = await lint({ root: CASE, config });
    const notes = result.notes.filter((n) => n.includes('sub-command'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('`vault export` (README.md:7)');
    expect(notes[0]).not.toContain('opne');
    expect(notes[0]).not.toContain('jotter');
    expect(result.messages.filter((m) => m.messageId === 'unknownSubcommandWithSuggestion').map((m) => m.data['name'])).toEqual(['opne']);
  });
});
