/**
 * #33 s28 sweep2 D2, D3, D5 (s29): the indexed lookups that replaced per-name and per-invocation
 * scans give the old scans' answers. Each is compared with the scan it replaced (copied here) on
 * seeded random inputs shaped like real ones: env names sharing namespaces, computed reads with
 * prefixes and head/suffix pairs, argparse flags with aliases and negatable forms.
 */
import { describe, expect, it } from 'vitest';
import { envNameStatus, isWellKnownEnv, vendorNamespace } from '../src/link/environment.js';
import { FlagLookup } from '../src/link/build.js';
import { scanParam } from '../src/model/query.js';
import { abbreviatedName, foldSpelling } from '../src/shared/names.js';
import type { CommandSpec, DynamicEnvRead, ParamSpec } from '../src/model/types.js';

/** A deterministic generator (mulberry32), so a failure can be replayed. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;

function param(name: string, extra: Partial<ParamSpec> = {}): ParamSpec {
  return { name, aliases: [], required: false, deprecated: false, hidden: false, origin: 'env-var', owner: 'a.py', location: { file: 'a.py', line: 1, column: 1 }, ...extra };
}

function command(params: ParamSpec[], extra: Partial<CommandSpec> = {}): CommandSpec {
  return { name: 'tool', aliases: [], configClasses: [], params, ...extra } as CommandSpec;
}

const WORDS = ['APP', 'APPL', 'DB', 'DATABASE', 'HOST', 'PORT', 'URL', 'TOKEN', 'TOK', 'QDRANT', 'CLIENT', 'ID', 'X', 'CONN', 'CONNECTION', 'GITHUB', 'REPO', 'REPOSITORY'];

function envName(r: () => number): string {
  const n = 1 + Math.floor(r() * 3);
  return Array.from({ length: n }, () => pick(r, WORDS)).join(r() < 0.1 ? '-' : '_');
}

describe('envNameStatus indexes (s28 sweep2 D2, D3)', () => {
  // The tests the index replaced, as they were (environment.ts before s29).
  const oldDynamic = (name: string, dynamic: readonly DynamicEnvRead[]): boolean =>
    dynamic.some((d) => d.prefix !== '' && (name.startsWith(d.prefix) || foldSpelling(name).startsWith(foldSpelling(d.prefix)))) ||
    dynamic.some((d) => d.suffix !== undefined && name.length > d.suffix.length && name.endsWith(d.suffix) && (d.heads ?? []).includes(name.slice(0, -d.suffix.length)));
  const oldOwn = (name: string, cmd: CommandSpec, supplied: ReadonlySet<string>): boolean => {
    const first = name.split('_')[0]!;
    const evidence = (p: ParamSpec): boolean => !p.hidden || (supplied.has(p.name) && !isWellKnownEnv(p.name));
    return cmd.params.some((p) => evidence(p) && p.name !== name && p.name.split('_')[0] === first);
  };

  it('answers as the scans did on random names, parameters and computed reads', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const r = rng(seed);
      const params = Array.from({ length: 1 + Math.floor(r() * 12) }, () => param(envName(r), { hidden: r() < 0.3 }));
      // A name read twice: the exclusion of the name itself must count both.
      if (r() < 0.5) params.push(param(params[0]!.name));
      const supplied = new Set(params.filter(() => r() < 0.3).map((p) => p.name));
      const dynamic: DynamicEnvRead[] = Array.from({ length: Math.floor(r() * 6) }, () => {
        const kind = r();
        const location = { file: 'a.py', line: 1, column: 1 };
        if (kind < 0.5) return { prefix: r() < 0.2 ? '' : r() < 0.1 ? '_' : `${pick(r, WORDS)}${r() < 0.5 ? '_' : ''}`.toLowerCase().replace(/^./, (c) => (r() < 0.5 ? c : c.toUpperCase())), location, construct: 'x' };
        const suffix = r() < 0.1 ? '' : `_${pick(r, WORDS)}`;
        return { prefix: '', suffix, ...(r() < 0.8 ? { heads: Array.from({ length: Math.floor(r() * 3) }, () => (r() < 0.1 ? '' : pick(r, WORDS))) } : {}), location, construct: 'x' };
      });
      const cmd = command(params);
      for (let k = 0; k < 60; k++) {
        const name = r() < 0.3 ? pick(r, params).name : envName(r);
        const expected = oldDynamic(name, dynamic) ? 'excluded' : null;
        const got = envNameStatus(name, cmd, dynamic, () => false, undefined, supplied);
        if (expected) expect(got, `${seed} ${name}`).toBe('excluded');
        else if (got !== 'excluded') {
          // Past the dynamic test: own exactly when the old parameter scan said so (the other tests are unchanged).
          const first = name.split('_')[0]!;
          if (first.length >= 2 && first !== name && !vendorNamespace(name)) expect(got === 'own', `${seed} ${name}`).toBe(oldOwn(name, cmd, supplied));
        } else expect(isWellKnownEnv(name), `${seed} ${name}: excluded only when well known`).toBe(true);
      }
    }
  });

  it('counts a parameter list again once it grew', () => {
    const cmd = command([param('APP_URL')]);
    expect(envNameStatus('APP_URL', cmd, [], () => false)).toBe('foreign');
    cmd.params.push(param('APP_PORT'));
    expect(envNameStatus('APP_URL', cmd, [], () => false)).toBe('own');
  });
});

describe('abbreviatedName index (s28 sweep2 D2)', () => {
  // The scan the index replaced (names.ts before s29).
  function oldAbbreviated(name: string, candidates: Iterable<string>): string | undefined {
    const words = name.toLowerCase().split(/[-_.]+/).filter(Boolean);
    let found: string | undefined;
    for (const candidate of candidates) {
      const other = candidate.toLowerCase().split(/[-_.]+/).filter(Boolean);
      if (other.length !== words.length || candidate === name) continue;
      let cut = false;
      let same = true;
      for (let i = 0; i < words.length && same; i++) {
        const a = words[i]!;
        const b = other[i]!;
        if (a === b) continue;
        const [short, long] = a.length < b.length ? [a, b] : [b, a];
        if (short.length >= 3 && long.startsWith(short)) cut = true;
        else same = false;
      }
      if (!same || !cut) continue;
      if (found !== undefined && found !== candidate) return undefined;
      found = candidate;
    }
    return found;
  }

  it('answers as the scan did', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const r = rng(seed);
      const candidates = Array.from({ length: Math.floor(r() * 15) }, () => envName(r));
      if (r() < 0.2) candidates.push('__', '');
      for (let k = 0; k < 40; k++) {
        const name = r() < 0.2 ? pick(r, [...candidates, '_']) : envName(r);
        expect(abbreviatedName(name, candidates), `${seed} ${name} in ${candidates.join(',')}`).toBe(oldAbbreviated(name, candidates));
        expect(abbreviatedName(name, new Set(candidates)), `${seed} ${name} (a set)`).toBe(oldAbbreviated(name, candidates));
      }
    }
  });

  it('indexes an array again once it grew', () => {
    const names = ['GITHUB_REPOSITORY'];
    expect(abbreviatedName('GITHUB_REPO', names)).toBe('GITHUB_REPOSITORY');
    names.push('GITHUB_REPORT');
    expect(abbreviatedName('GITHUB_REPO', names)).toBeUndefined();
  });
});

describe('FlagLookup (s28 sweep2 D5)', () => {
  const FLAGS = ['f', 'fo', 'foo', 'foobar', 'bar', 'ba', 'baz', 'params', 'param', 'verbose', 'v', 'x', 'cache', 'no-cache', 'dry-run', 'dry', 'output-dir', 'out'];

  function randomCommand(r: () => number): CommandSpec {
    const seedAllFlags = r() < 0.5;
    const flag = (): ParamSpec =>
      param(pick(r, FLAGS), {
        origin: r() < (seedAllFlags ? 1 : 0.85) ? 'cli-flag' : 'config-field',
        aliases: Array.from({ length: Math.floor(r() * 3) }, () => pick(r, FLAGS)),
        ...(r() < 0.3 ? { negatable: true } : {}),
        ...(r() < 0.15 ? { positional: true, ...(r() < 0.5 ? { variadic: true } : {}) } : {}),
      });
    const params = Array.from({ length: Math.floor(r() * 10) }, flag);
    return command(params, r() < 0.4 ? { acceptedParams: Array.from({ length: 1 + Math.floor(r() * 3) }, flag) } : {});
  }

  it('answers as scanParam, the per-invocation prefix filter and the flag find did', () => {
    for (let seed = 1; seed <= 80; seed++) {
      const r = rng(seed);
      const cmd = randomCommand(r);
      const lookup = new FlagLookup(cmd);
      const all = [...cmd.params, ...(cmd.acceptedParams ?? [])];
      const flags = all.filter((p) => p.origin === 'cli-flag' && !p.positional);
      const spellings = [...new Set(flags.flatMap((p) => [p.name, ...p.aliases, ...(p.negatable ? [`no-${p.name}`] : [])]).filter((n) => n.length > 1))];
      expect(lookup.hasFlags).toBe(flags.length > 0);
      expect(lookup.positionalCount).toBe(all.filter((p) => p.origin === 'cli-flag' && p.positional).length);
      expect(lookup.variadicFlagsOnly).toBe(all.some((p) => p.origin === 'cli-flag' && p.positional && p.variadic) && all.every((p) => p.origin === 'cli-flag'));
      for (const name of [...FLAGS, 'no-foo', 'no-f', 'no-', 'no', '', 'd', 'dr', 'o', 'ou', 'outp', 'p', 'para', 'zzz']) {
        expect(lookup.scanParam(name), `${seed} ${name}`).toBe(scanParam(cmd, name));
        expect(lookup.flagBySpelling(name), `${seed} ${name}`).toBe(flags.find((f) => f.name === name || f.aliases.includes(name)));
        const matches = spellings.filter((n) => n.startsWith(name));
        // Option strings with their dashes (#33 F10): `--para` → `--params`; a usual spelling never starts with one dash.
        expect(lookup.uniqueLongPrefix(`--${name}`), `${seed} ${name}`).toBe(matches.length === 1 ? `--${matches[0]}` : undefined);
        if (name !== '') expect(lookup.uniqueLongPrefix(`-${name}`), `${seed} -${name}`).toBeUndefined();
      }
    }
  });

  it('prefixes the option strings the code declares: `-g` starts `-gx` only, `--g` is no prefix of `-gx` (#33 F10)', () => {
    const lookup = new FlagLookup(command([
      param('g', { origin: 'cli-flag', optionStrings: ['--g'] }),
      param('gx', { origin: 'cli-flag', optionStrings: ['-gx'] }),
      param('gpu', { origin: 'cli-flag' }),
    ]));
    expect(lookup.uniqueLongPrefix('-g')).toBe('-gx');
    expect(lookup.uniqueLongPrefix('--g')).toBeUndefined(); // `--g` and `--gpu`
    expect(lookup.uniqueLongPrefix('--gp')).toBe('--gpu');
    expect(lookup.uniqueLongPrefix('--gx')).toBeUndefined();
    expect(lookup.declaring('--g')?.name).toBe('g');
    expect(lookup.declaring('-g')).toBeUndefined();
  });

  it('no longer fits a command whose parameter lists changed', () => {
    const cmd = command([param('seed', { origin: 'cli-flag' })]);
    const lookup = new FlagLookup(cmd);
    expect(lookup.fits(cmd)).toBe(true);
    cmd.params.push(param('name', { origin: 'cli-flag' }));
    expect(lookup.fits(cmd)).toBe(false);
    const grown = new FlagLookup(cmd);
    cmd.acceptedParams = [param('extra', { origin: 'cli-flag' })];
    expect(grown.fits(cmd)).toBe(false);
  });
});
