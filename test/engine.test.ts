/** Engine helpers: which documents are worth parsing, rule configuration. */
import { describe, expect, it } from 'vitest';
import { configureRules, effectiveGlobalParameters, interpolationKeys, mentionMatcher } from '../src/engine/lint.js';
import { DEFAULT_CONFIG } from '../src/config/schema.js';
import { rules } from '../src/api.js';

describe('mentionMatcher', () => {
  const matcher = mentionMatcher(['ng_run', 'tool-legacy', 'a.b'], ['Common options']);
  const mentions = (text: string) => matcher.test(text);

  it('finds a command named as a whole word', () => {
    expect(mentions('Run `ng_run +x=1` first.')).toBe(true);
    expect(mentions('$ tool-legacy --help')).toBe(true);
    expect(mentions('call a.b now')).toBe(true);
  });

  it('does not match inside longer identifiers or on regex metacharacters', () => {
    expect(mentions('use ng_run_all or my_ng_run')).toBe(false);
    expect(mentions('tool-legacy-2 is another tool')).toBe(false);
    expect(mentions('axb is not a.b')).toBe(true);
    expect(mentions('axb only')).toBe(false);
  });

  it('accepts documents with a global-options heading', () => {
    expect(mentions('# Guide\n\n## Common Options:\n\n| Option |')).toBe(true);
    expect(mentions('# Guide\n\nCommon options are below.')).toBe(false);
  });

  it('with env checking, reads a page whose prose names an environment variable as such (issue #31), either way round', () => {
    const env = mentionMatcher(['tool'], [], [], true);
    expect(env.test('* Force the Qt binding with ``QUQMASH_QTIMPL`` environment variable.')).toBe(true);
    expect(env.test('Set the env var `$APP_CACHE_DIR` before starting.')).toBe(true);
    expect(env.test('The `APP_CACHE_DIR=/tmp` environment variable')).toBe(true);
    // Not a variable by its sentence, a one-word name, or the words in another sentence.
    expect(env.test('The constant `MAX_RETRY_COUNT` sets retries.')).toBe(false);
    expect(env.test('The `PORT` environment variable.')).toBe(false);
    expect(env.test('See `APP_CACHE_DIR`. Other environment variables are below.')).toBe(false);
    expect(mentionMatcher(['tool'], []).test('Set the env var `$APP_CACHE_DIR`.')).toBe(false);
    expect(env.key).not.toBe(mentionMatcher(['tool'], []).key);
  });

  it('has a key that differs exactly when the accepted texts may differ', () => {
    // The per-file cache keeps each page's answer under the key (src/engine/doc-texts.ts).
    expect(mentionMatcher(['b', 'a', 'a', ''], ['X']).key).toBe(mentionMatcher(['a', 'b'], ['X']).key);
    expect(mentionMatcher(['a', 'b'], ['X']).key).not.toBe(mentionMatcher(['a', 'bc'], ['X']).key);
    expect(mentionMatcher(['a'], ['X']).key).not.toBe(mentionMatcher(['a'], ['X', 'Y']).key);
    expect(mentionMatcher(['a'], ['X'], ['city', 'units']).key).not.toBe(mentionMatcher(['a'], ['X'], ['city']).key);
    expect(mentionMatcher(['a'], ['X'], ['city', 'units']).key).toBe(mentionMatcher(['a'], ['X'], ['units', 'city']).key);
  });

  it('reads a page that names three config-class fields in inline code, in any spelling, though it names no command', () => {
    // A page of config keys that names no command (issue #29): inference by content must see it.
    const keys = mentionMatcher(['weather'], [], ['city', 'units', 'timeout_s', 'retries']);
    expect(keys.test('| `city` | x |\n| `units` | y |\n| `timeoutS` | z |')).toBe(true);
    expect(keys.test('Pass `--city`, `--units` and `--timeout-s=3`.')).toBe(true);
    // Two names, or the same name three times, or names outside inline code: not enough.
    expect(keys.test('`city` and `units` only.')).toBe(false);
    expect(keys.test('`city`, `city`, `city`.')).toBe(false);
    expect(keys.test('city, units, retries and timeout_s in prose')).toBe(false);
    expect(mentionMatcher(['weather'], []).test('| `city` | `units` | `retries` |')).toBe(false);
  });
});

describe('configureRules', () => {
  it('applies severities and options over the defaults', () => {
    const configured = configureRules(rules, {
      'example-param-unknown': ['warn', { reportUnknownNamespaces: true }],
      'parse-error': 'off',
    });
    const byId = Object.fromEntries(configured.map((c) => [c.rule.meta.id, c]));
    expect(byId['example-param-unknown']).toMatchObject({ severity: 'warn', options: { reportUnknownNamespaces: true } });
    expect(byId['parse-error']?.severity).toBe('off');
    expect(byId['reference-param-missing']?.severity).toBe('error');
  });
});

describe('interpolationKeys', () => {
  it('reads the keys OmegaConf interpolations refer to', () => {
    const yaml = [
      'base_url: ${judge_base_url}',
      'model: ${oc.select:judge_model_name,gpt-4o}',
      'nested: ${policy.model_name}',
      'env: ${oc.env:HOME}',
      'list: ${servers[0]}',
      'literal: $notakey {also_not}',
    ].join('\n');
    expect(interpolationKeys(yaml)).toEqual(['judge_base_url', 'judge_model_name', 'policy', 'servers']);
  });
});

describe('effectiveGlobalParameters', () => {
  const defaults = [...DEFAULT_CONFIG.globalParameters];
  it('keeps Hydra flags only in projects that import hydra or omegaconf, config_path only with draccus', () => {
    const plain = effectiveGlobalParameters(defaults, [{ text: 'import argparse\n' }]);
    expect(plain.sort()).toEqual(['h', 'help', 'version']);
    const hydra = effectiveGlobalParameters(defaults, [{ text: 'from omegaconf import DictConfig\n' }]);
    expect(hydra).toContain('config_paths');
    expect(hydra).toContain('m');
    expect(hydra).not.toContain('config_path');
    expect(effectiveGlobalParameters(defaults, [{ text: 'import draccus\n' }])).toContain('config_path');
  });
  it('uses an explicit list as given', () => {
    expect(effectiveGlobalParameters(['seed'], [{ text: '' }])).toEqual(['seed']);
  });
});
