/**
 * Dotted CLI flags of nested config classes as tyro and jsonargparse accept them
 * (`flagSpelledField` in src/model/query.ts): dashes for underscores, and `no_`/`no-` before a
 * boolean field's name.
 */
import { describe, expect, it } from 'vitest';
import { flagSpelledField } from '../src/model/query.js';
import type { ParamSpec } from '../src/model/types.js';

const at = { file: 'trainer/config.py', line: 1, column: 1 };
const field = (name: string, type: string): ParamSpec => ({ name, aliases: [], type, required: false, deprecated: false, hidden: false, origin: 'config-field', owner: 'Profiler', location: at });
const fields = [field('enable_snapshot', 'bool'), field('snapshot_folder', 'str'), field('freq', 'int | None')];

describe('flagSpelledField', () => {
  it('reads dashes for underscores', () => {
    expect(flagSpelledField(fields, 'snapshot-folder')?.name).toBe('snapshot_folder');
    expect(flagSpelledField(fields, 'enable-snapshot')?.name).toBe('enable_snapshot');
  });

  it('reads the negation of a boolean field in either spelling, never of another type', () => {
    expect(flagSpelledField(fields, 'no_enable_snapshot')?.name).toBe('enable_snapshot');
    expect(flagSpelledField(fields, 'no-enable-snapshot')?.name).toBe('enable_snapshot');
    expect(flagSpelledField(fields, 'no-enable_snapshot')?.name).toBe('enable_snapshot');
    expect(flagSpelledField(fields, 'no_freq')).toBeUndefined();
    expect(flagSpelledField(fields, 'no_snapshot_folder')).toBeUndefined();
  });

  it('finds nothing for a name no field has', () => {
    expect(flagSpelledField(fields, 'enable_profiling')).toBeUndefined();
    expect(flagSpelledField(fields, 'no_enable_profiling')).toBeUndefined();
  });
});
