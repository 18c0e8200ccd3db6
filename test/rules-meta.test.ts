/** Meta checks over every rule: metadata shape, its doc page with every option, and its fixtures. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ruleIds, rules } from '../src/api.js';
import { engineRules } from '../src/engine/engine-rules.js';

const ROOT = path.resolve(import.meta.dirname, '..');

describe.each(rules.map((r) => [r.meta.id, r] as const))('%s', (id, rule) => {
  it('has a kebab-case id matching its file, and a description starting with a verb', () => {
    expect(id).toMatch(/^[a-z]+(-[a-z]+)*$/);
    expect(existsSync(path.join(ROOT, 'rules', `${id}.ts`))).toBe(true);
    expect(rule.meta.description).toMatch(/^(Report|Check|Require|Warn|Flag)s? /);
    expect(Object.keys(rule.meta.messages).length).toBeGreaterThan(0);
  });

  it('has a doc page with a heading for every option', () => {
    const doc = readFileSync(path.join(ROOT, 'rules', `${id}.md`), 'utf8');
    expect(doc).toMatch(new RegExp(`^# ${id}$`, 'm'));
    for (const option of Object.keys(rule.meta.options)) {
      expect(doc, `option ${option}`).toMatch(new RegExp(`^###? \`${option}\``, 'm'));
    }
    for (const option of Object.values(rule.meta.options)) expect(option.description.length).toBeGreaterThan(10);
  });

  it('has valid and invalid fixtures', () => {
    for (const kind of ['valid', 'invalid']) {
      const dir = path.join(ROOT, 'fixtures', 'rules', id, kind);
      expect(existsSync(dir) && readdirSync(dir).length > 0, `${kind} fixtures of ${id}`).toBe(true);
    }
  });
});

describe.each(engineRules.map((r) => [r.meta.id, r] as const))('engine rule %s', (id, rule) => {
  it('has a rule id configurable like the others, a doc page, and no rule module', () => {
    expect(id).toMatch(/^[a-z]+(-[a-z]+)*$/);
    expect(rule.meta.description).toMatch(/^(Report|Check|Require|Warn|Flag)s? /);
    expect(ruleIds).toContain(id);
    expect(rules.map((r) => r.meta.id)).not.toContain(id);
    expect(existsSync(path.join(ROOT, 'rules', `${id}.ts`))).toBe(false);
    const doc = readFileSync(path.join(ROOT, 'rules', `${id}.md`), 'utf8');
    expect(doc).toMatch(new RegExp(`^# ${id}$`, 'm'));
    expect(doc).toMatch(/^## Not a rule module$/m);
  });
});
