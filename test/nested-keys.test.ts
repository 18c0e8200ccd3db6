/**
 * `nestedKeys` (src/model/query.ts): the dotted leaf keys of a nested config parameter, bounded
 * per parameter and per run (#33 s28 sweep D9: k fields per level made k^9 keys), and the link
 * stage's warning when it cut. Parity with the unbounded walk it replaced on random class graphs
 * (cycles, missing classes, deeper than 9 levels) under the bound.
 */
import { describe, expect, it } from 'vitest';
import { MAX_NESTED_KEYS, MAX_NESTED_KEYS_PER_RUN, nestedKeyDiagnostics, nestedKeys } from '../src/model/query.js';
import type { CommandSpec, ConfigClass, Model, ParamSpec } from '../src/model/types.js';
import { seededRandom } from './random.js';

function field(name: string, typeRef?: string): ParamSpec {
  return { name, aliases: [], required: false, deprecated: false, hidden: false, origin: 'config-field', owner: 'C', location: { file: 'tool/cli.py', line: 1, column: 1 }, ...(typeRef ? { typeRef } : {}) };
}

function cls(name: string, fields: ParamSpec[], line = 1): ConfigClass {
  return { name, qualifiedName: name, module: 'tool.cli', kind: 'pydantic', bases: [], fields, location: { file: 'tool/cli.py', line, column: 7 } };
}

/** A model holding only what `nestedKeys` reads: classes, and commands for the diagnostics. */
function model(classes: ConfigClass[], params: ParamSpec[] = []): Model {
  const cmd = { name: 'tool', params } as unknown as CommandSpec;
  return { classes: new Map(classes.map((c) => [c.qualifiedName, c])), commands: [cmd] } as unknown as Model;
}

/** The walk before the bound (src/model/query.ts until s28), kept as the reference. */
function unbounded(m: Model, param: ParamSpec, prefix = param.name, depth = 0, seen = new Set<string>()): Array<{ key: string; param: ParamSpec }> {
  if (!param.typeRef || depth > 8 || seen.has(param.typeRef)) return [];
  const c = m.classes.get(param.typeRef);
  if (!c) return [];
  const inner = new Set(seen).add(param.typeRef);
  return c.fields.flatMap((f) => {
    const key = `${prefix}.${f.name}`;
    const below = unbounded(m, f, key, depth + 1, inner);
    return below.length > 0 ? below : [{ key, param: f }];
  });
}

/** Classes M0…M(levels-1), each with `k` fields typed by the next; the last with `k` int fields. */
function tower(k: number, levels: number): ConfigClass[] {
  return Array.from({ length: levels }, (_, i) =>
    cls(`M${i}`, Array.from({ length: k }, (_, j) => (i === levels - 1 ? field(`x${j}`) : field(`f${j}`, `M${i + 1}`))), i + 1),
  );
}

describe('nestedKeys', () => {
  it('lists what the unbounded walk listed on random class graphs (cycles, missing classes, 12 levels)', () => {
    const random = seededRandom(28_009);
    for (let round = 0; round < 300; round++) {
      const n = 1 + Math.floor(random() * 14);
      const classes = Array.from({ length: n }, (_, i) =>
        cls(`C${i}`, Array.from({ length: Math.floor(random() * 4) }, (_, j) => {
          const r = random();
          // A field typed by any class (cycles included), by a class the model lacks, or by none.
          return field(`f${j}`, r < 0.6 ? `C${Math.floor(random() * n)}` : r < 0.7 ? 'Missing' : undefined);
        })),
      );
      const m = model(classes);
      for (const c of classes) {
        const root = field(`p${c.name}`, c.qualifiedName);
        const got = nestedKeys(m, root);
        expect(got.cut).toBeUndefined();
        expect(got.keys.map((k) => [k.key, k.param])).toEqual(unbounded(m, root).map((k) => [k.key, k.param]));
      }
    }
  });

  it('is empty for a parameter without a class', () => {
    const m = model([]);
    expect(nestedKeys(m, field('seed')).keys).toEqual([]);
    expect(nestedKeys(m, field('seed', 'Missing')).keys).toEqual([]);
  });

  it('lists the first MAX_NESTED_KEYS keys of a k^9 tree, in the old order, and says which class it cut', () => {
    const classes = tower(4, 10); // 4^9 = 262,144 keys below M0
    const m = model(classes);
    const root = field('m', 'M0');
    const all = unbounded(m, root);
    expect(all.length).toBe(4 ** 9);
    const got = nestedKeys(m, root);
    expect(got.keys.length).toBe(MAX_NESTED_KEYS);
    expect(got.keys.map((k) => k.key)).toEqual(all.slice(0, MAX_NESTED_KEYS).map((k) => k.key));
    expect(got.cut?.owner.name).toBe('M8');
    expect(got.cut?.budget).toBe('the budget of 50,000 nested keys per parameter');
    expect(all[MAX_NESTED_KEYS]!.key.startsWith(`${got.cut!.prefix}.`)).toBe(true);
    // Memoised: the rules asking again get the same list.
    expect(nestedKeys(m, field('m', 'M0'))).toBe(got);
  });

  it('12 fields x 10 levels (the sweep module: 100 s and a heap abort before) stays bounded', () => {
    const m = model(tower(12, 11));
    const started = performance.now();
    const got = nestedKeys(m, field('m', 'M0'));
    expect(got.keys.length).toBe(MAX_NESTED_KEYS);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('spends at most MAX_NESTED_KEYS_PER_RUN keys per model, then cuts at the root', () => {
    const m = model(tower(4, 10));
    const per = MAX_NESTED_KEYS_PER_RUN / MAX_NESTED_KEYS;
    for (let i = 0; i < per; i++) expect(nestedKeys(m, field(`p${i}`, 'M0')).keys.length).toBe(MAX_NESTED_KEYS);
    const last = nestedKeys(m, field('late', 'M0'));
    expect(last.keys).toEqual([]);
    expect(last.cut).toMatchObject({ prefix: 'late', budget: 'the budget of 500,000 nested keys per run' });
    expect(last.cut?.owner.name).toBe('M0');
  });
});

describe('nestedKeyDiagnostics', () => {
  it('says nothing for trees within the budget', () => {
    const classes = tower(3, 4);
    expect(nestedKeyDiagnostics(model(classes, [field('m', 'M0'), field('seed')]))).toEqual([]);
  });

  it('warns once per file, naming the first class cut and how many parameters were', () => {
    const classes = tower(4, 10);
    const d = nestedKeyDiagnostics(model(classes, [field('seed'), field('a', 'M0'), field('b', 'M0')]));
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ ruleId: 'parse-error', severity: 'warn', location: { file: 'tool/cli.py', line: 9, column: 7 } });
    expect(d[0]!.message).toMatch(/^tool\/cli\.py:9:7: `M8` \(the type of `a\.f0(?:\.f\d){7}`\) is past the budget of 50,000 nested keys per parameter: .*\(2 parameters so cut\); commands using them are partly known$/);
  });
});
