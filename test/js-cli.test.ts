/**
 * JavaScript/TypeScript CLI kinds docdrift used to read only partly (issue #30), on invented
 * fixture projects under `fixtures/js-cli/<kind>/`: each asserts what is checked now, and that
 * what cannot be read is said once instead of reported row by row.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintTwin } from './helpers.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/js-cli');

describe('commander sub-command that hands its flags on (.allowUnknownOption())', () => {
  it('leaves its flags unknown with one note, and still checks the sibling sub-command', async () => {
    const { result, messages } = await lintTwin(path.join(FIXTURES, 'commander-delegate'));
    const gen = result.model.commands.find((c) => c.name === 'packgen gen');
    expect(gen).toMatchObject({ paramsKnown: false, passesUnknownFlags: true });
    // No per-row or per-example error for the plugin's flags…
    expect(messages.filter((m) => (m.data as { command?: string } | undefined)?.command === 'packgen gen')).toEqual([]);
    // …but one note names the command and why.
    expect(result.notes.filter((n) => n.includes('`packgen gen`') && n.includes('allowUnknownOption'))).toHaveLength(1);
    // The sibling is checked as before: its stale row is reported.
    expect(messages.map((m) => [m.ruleId, (m.data as { name?: string }).name])).toEqual([['reference-param-unknown', 'sourcemap']]);
  });
});
