/** A hostile name is shown shortened in messages, kept whole in the finding's data (s26 sweep3 O2: a 150,000-character name was printed whole in every finding). */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMessage, MAX_SHOWN_RELATED_LENGTH, MAX_SHOWN_VALUE_LENGTH } from '../src/engine/run-rules.js';
import { findingKeyString } from '../src/engine/fingerprint.js';
import type { Rule } from '../src/model/rule.js';
import { CLI_BIN } from './helpers.js';

const rule: Pick<Rule, 'meta'> = {
  meta: { id: 'example-param-unknown', description: 'x', defaultSeverity: 'error', fixable: false, options: {}, messages: { unknown: '`{{name}}` is not a parameter of `{{command}}`.' } },
};
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

describe('createMessage', () => {
  it('shows a value over the limit by its first 1,000 characters and …, keeps data whole, and the identity is that of the whole value', () => {
    const name = `p${'x'.repeat(150_000)}`;
    const long = createMessage(rule, 'error', { messageId: 'unknown', data: { name, command: 'tool' }, location: { file: 'README.md', line: 3, column: 1 }, related: [{ file: 'a.py', line: 1, column: 1, message: `\`${name}\` is here` }] });
    expect(long.reason).toBe(`\`${name.slice(0, 1000)}…\` is not a parameter of \`tool\`.`);
    expect(long.data!.name).toBe(name);
    expect(long.related[0]!.message.length).toBeLessThanOrEqual(MAX_SHOWN_RELATED_LENGTH);
    expect(findingKeyString(long)).toContain(name);
    // At the limit: unchanged.
    const edge = 'y'.repeat(MAX_SHOWN_VALUE_LENGTH);
    expect(createMessage(rule, 'error', { messageId: 'unknown', data: { name: edge, command: 'tool' }, location: { file: 'README.md', line: 3, column: 1 } }).reason).toContain(edge);
  });

  it('does not split a surrogate pair', () => {
    const name = `${'a'.repeat(999)}😀${'b'.repeat(2000)}`;
    const m = createMessage(rule, 'error', { messageId: 'unknown', data: { name, command: 'tool' }, location: { file: 'README.md', line: 3, column: 1 } });
    expect(m.reason).toBe(`\`${'a'.repeat(999)}…\` is not a parameter of \`tool\`.`);
  });
});

describe('a run over a README example naming a 150,000-character parameter', () => {
  it('prints it shortened: the report stays a few KB', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-long-name-'));
    temps.push(dir);
    cpSync(path.resolve(import.meta.dirname, '../fixtures/bad-input/_base'), dir, { recursive: true });
    const name = `p${'q'.repeat(150_000)}`;
    writeFileSync(path.join(dir, 'README.md'), `# tool\n\n\`\`\`bash\ntool +${name}=1\ntool +${name}=2\n\`\`\`\n\nSee the [reference](docs/reference.md#tool).\n`);
    const r = spawnSync(process.execPath, [CLI_BIN, '--no-cache'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toContain(`${name.slice(0, 1000)}…`);
    expect(r.stdout.length).toBeLessThan(10_000);
  });
});
