/**
 * #33 s27 sweep D9 and D13: quadratic work on a config of many declared flags and on a monorepo of
 * many Python packages. Each fix is checked against the implementation it replaced (kept here as
 * the reference) on varied inputs, and at the sweep's size against a generous time bound.
 */
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import type { DocdriftConfig, FlagDeclaration } from '../src/config/schema.js';
import type { CommandSpec, ParamSpec, SourceLocation } from '../src/model/types.js';
import { applyDeclaredFlags, declaredDefault, parseFlagSpellings, type ConfigSource, type FlagSpellings } from '../src/link/declared-flags.js';
import { moduleNameForFile } from '../src/extract/python/module-name.js';
import { pythonPackageRoots } from '../src/engine/lint.js';
import { trimTrailing } from '../src/shared/strings.js';
import { seededRandom } from './helpers.js';

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

// ---------------------------------------------------------------------------------------------
// D9: the reference, as src/link/declared-flags.ts had it before the fix.

function oldLocate(source: ConfigSource | undefined, needle: string, after = 0): { location: SourceLocation; offset: number } {
  const file = source?.file ?? 'docdrift.config.json';
  if (!source) return { location: { file, line: 1, column: 1 }, offset: 0 };
  let at = source.text.indexOf(needle, after);
  if (at < 0) at = source.text.indexOf(needle);
  if (at < 0) return { location: { file, line: 1, column: 1 }, offset: after };
  const before = source.text.slice(0, at);
  const line = before.split('\n').length;
  const column = at - (before.lastIndexOf('\n') + 1) + 1;
  return { location: { file, line, column, endLine: line, endColumn: column + needle.length }, offset: at + needle.length };
}

function oldAmend(param: ParamSpec, decl: FlagDeclaration, spellings: FlagSpellings): void {
  for (const a of spellings.aliases) if (a !== param.name && !param.aliases.includes(a)) param.aliases.push(a);
  if (decl.type !== undefined) param.type = decl.type;
  const def = declaredDefault(decl.default);
  if (def) param.default = def;
  if (decl.description !== undefined) param.description = decl.description;
  if (decl.required !== undefined) param.required = decl.required;
  if (decl.hidden !== undefined) param.hidden = decl.hidden;
  if (decl.deprecated !== undefined) param.deprecated = decl.deprecated;
  if (decl.choices !== undefined) param.choices = [...decl.choices];
  if (decl.negatable !== undefined || spellings.negatable) param.negatable = decl.negatable ?? true;
  if (decl.positional !== undefined) param.positional = decl.positional;
  if (decl.field !== undefined) param.dest = decl.field;
}

function oldApplyDeclaredFlags(commands: CommandSpec[], config: DocdriftConfig, source?: ConfigSource): void {
  let cursor = 0;
  for (const [name, entry] of Object.entries(config.commands)) {
    if (!entry.flags || entry.flags.length === 0) continue;
    const cmd = commands.find((c) => c.name === name || c.aliases.includes(name));
    if (!cmd) continue;
    const owner = source ? source.file.split('/').pop()! : 'config';
    const entryAt = oldLocate(source, JSON.stringify(name), cursor);
    cursor = entryAt.offset;
    for (const decl of entry.flags) {
      const spellings = parseFlagSpellings(decl.name, decl.aliases ?? []);
      const names = [spellings.name, ...spellings.aliases];
      const existing = cmd.params.find((p) => p.origin === 'cli-flag' && names.some((n) => p.name === n || p.aliases.includes(n)));
      if (existing) {
        oldAmend(existing, decl, spellings);
        continue;
      }
      const at = oldLocate(source, decl.name, cursor);
      const param: ParamSpec = {
        name: spellings.name,
        aliases: [],
        required: false,
        deprecated: false,
        hidden: false,
        origin: 'cli-flag',
        owner,
        location: at.location,
      };
      oldAmend(param, decl, spellings);
      if (decl.positional) param.required = decl.required ?? true;
      const field = decl.field === undefined ? undefined : cmd.params.find((p) => p.origin !== 'cli-flag' && p.name === decl.field);
      if (field) {
        param.type ??= field.type;
        param.description ??= field.description;
        if (param.default === undefined && field.default !== undefined) param.default = field.default;
      }
      cmd.params.push(param);
    }
    cmd.paramsKnown = true;
  }
}

const SPELLINGS = ['port', 'p', 'out', 'o', 'verbose', 'v', 'color', 'seed', 'workers', 'w', 'lr', 'x', 'dataset', 'out-dir'];

function param(r: () => number, origin: ParamSpec['origin']): ParamSpec {
  const name = pick(r, SPELLINGS);
  const aliases = r() < 0.5 ? [pick(r, SPELLINGS)] : [];
  const p: ParamSpec = { name, aliases, required: r() < 0.3, deprecated: false, hidden: false, origin, owner: 'cli.py', location: { file: 'cli.py', line: 1, column: 1 } };
  if (r() < 0.5) p.type = pick(r, ['int', 'str', 'bool']);
  if (r() < 0.4) p.description = `about ${name}`;
  if (r() < 0.4) p.default = { kind: 'literal', text: String(Math.floor(r() * 9)) };
  return p;
}

function flagName(r: () => number): string {
  const a = pick(r, SPELLINGS);
  const b = pick(r, SPELLINGS);
  return pick(r, [`--${a}`, `-${a}`, `-${b}, --${a} <n>`, `--${a}/--no-${a}`, `--${a} N`, a, `--${a}, -${b}`]);
}

function decl(r: () => number): FlagDeclaration {
  const d: FlagDeclaration = { name: flagName(r) };
  if (r() < 0.3) d.aliases = [`-${pick(r, SPELLINGS)}`];
  if (r() < 0.3) d.type = pick(r, ['int', 'float']);
  if (r() < 0.3) d.default = pick(r, [3, 'fast', null, true, '[1, 2]']);
  if (r() < 0.3) d.field = pick(r, SPELLINGS);
  if (r() < 0.2) d.positional = true;
  if (r() < 0.2) d.required = r() < 0.5;
  if (r() < 0.2) d.description = 'declared';
  return d;
}

/** Commands (some sharing a parameter list), a config of declared flags, and its text in one of several layouts. */
function d9Case(seed: number): { commands: CommandSpec[]; config: DocdriftConfig; source: ConfigSource | undefined } {
  const r = seededRandom(seed);
  const names = ['tool', 'tool serve', 'run', 'r', 'train', 'eval'];
  const commands: CommandSpec[] = [];
  for (let i = 0; i < 1 + Math.floor(r() * 4); i++) {
    const params = Array.from({ length: Math.floor(r() * 8) }, () => param(r, r() < 0.6 ? 'cli-flag' : 'config-field'));
    const cmd = { name: pick(r, names), aliases: r() < 0.4 ? [pick(r, names)] : [], configClasses: [], params } as unknown as CommandSpec;
    if (i > 0 && r() < 0.2) cmd.params = commands[0]!.params;
    commands.push(cmd);
  }
  const entries: Record<string, { flags?: FlagDeclaration[] }> = {};
  for (let i = 0; i < 1 + Math.floor(r() * 4); i++) entries[pick(r, names)] = r() < 0.1 ? {} : { flags: Array.from({ length: Math.floor(r() * 12) }, () => decl(r)) };
  const config = { commands: entries } as unknown as DocdriftConfig;
  const indent = pick(r, [0, 2, 4]);
  let text = JSON.stringify(config, null, indent);
  const eol = pick(r, ['\n', '\r\n', '\r', '\n\n']);
  text = text.replace(/\n/g, eol);
  if (r() < 0.2) text = `// header\n${text}`;
  const source = r() < 0.1 ? undefined : { file: pick(r, ['docdrift.config.json', 'conf/docdrift.config.json']), text };
  return { commands, config, source };
}

describe('D9: declared flags, compared with the quadratic reference', () => {
  it('gives the same parameters and locations on varied inputs', () => {
    for (let seed = 1; seed <= 600; seed++) {
      const { commands, config, source } = d9Case(seed);
      const before = structuredClone(commands);
      // structuredClone keeps lists shared between commands shared.
      oldApplyDeclaredFlags(before, config, source);
      applyDeclaredFlags(commands, config, source);
      expect(commands, `seed ${seed}`).toEqual(before);
    }
  });

  it('gives the same locations for many flags (past the point where positions are indexed)', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const r = seededRandom(seed);
      const flags: FlagDeclaration[] = Array.from({ length: 300 }, (_, i) => ({
        name: pick(r, [`--f${i}`, `--flag-number-${i % 37}`, `-${String.fromCharCode(97 + (i % 26))}`, `--f${i % 10}`, `--x${i}y`]),
      }));
      const config = { commands: { a: { flags: flags.slice(0, 150) }, tool: { flags: flags.slice(150) } } } as unknown as DocdriftConfig;
      const text = JSON.stringify(config, null, pick(r, [0, 2])).replace(/\n/g, pick(r, ['\n', '\r\n']));
      const source = { file: 'docdrift.config.json', text };
      const mk = (): CommandSpec[] =>
        ['a', 'tool'].map((name) => ({ name, aliases: [], configClasses: [], params: [] }) as unknown as CommandSpec);
      const [before, after] = [mk(), mk()];
      oldApplyDeclaredFlags(before, config, source);
      applyDeclaredFlags(after, config, source);
      expect(after, `seed ${seed}`).toEqual(before);
    }
  });

  it('applies 26,000 flags of a 259 KB config in well under the budget', () => {
    const b36 = (n: number): string => n.toString(36).replace(/[0-9a-z]/g, (c) => 'abcdefghijklmnopqrstuvwxyz0123456789'[parseInt(c, 36)]!);
    const flags = Array.from({ length: 26000 }, (_, i) => `--z${b36(i)}`);
    const text = `{"commands":{"tool":{"config":"ToolConfig","flags":[\n${flags.map((f) => JSON.stringify(f)).join(',\n')}\n]}}}\n`;
    const config = { commands: { tool: { flags: flags.map((name) => ({ name })) } } } as unknown as DocdriftConfig;
    const commands = [{ name: 'tool', aliases: [], configClasses: [], params: [] } as unknown as CommandSpec];
    const started = performance.now();
    applyDeclaredFlags(commands, config, { file: 'docdrift.config.json', text });
    const ms = performance.now() - started;
    expect(commands[0]!.params).toHaveLength(26000);
    expect(commands[0]!.params[25999]!.location).toMatchObject({ line: 26001, column: 2 });
    expect(ms).toBeLessThan(3000);
  });
});

// ---------------------------------------------------------------------------------------------
// D13: the reference, as src/extract/python/module-name.ts and src/engine/lint.ts had it.

function oldModuleNameForFile(file: string, packageRoots: string[] = ['src']): string {
  let p = file.replace(/\\/g, '/').replace(/^\.\//, '');
  let bestRoot = '';
  for (const raw of packageRoots) {
    const root = trimTrailing(raw.replace(/\\/g, '/').replace(/^\.\/?/, ''), '/');
    if (root !== '' && p.startsWith(`${root}/`) && root.length > bestRoot.length) bestRoot = root;
  }
  if (bestRoot !== '') p = p.slice(bestRoot.length + 1);
  p = p.replace(/\.pyi?$/, '');
  const parts = p.split('/').filter((x) => x !== '');
  if (parts[parts.length - 1] === '__init__') parts.pop();
  return parts.join('.');
}

function oldPythonPackageRoots(packagingFiles: string[], sources: Array<{ file: string }>): string[] {
  const files = new Set(sources.map((s) => s.file));
  const roots = files.has('src/__init__.py') ? [] : ['src'];
  for (const file of packagingFiles) {
    const dir = path.posix.dirname(file);
    if (dir === '.' || files.has(`${dir}/__init__.py`)) continue;
    for (const root of [dir, `${dir}/src`]) if (!roots.includes(root)) roots.push(root);
  }
  return roots;
}

const SEGMENTS = ['src', 'libs', 'cli', 'pkg', 'a', 'b', 'tool', 'x.y', ''];

function d13Case(seed: number): { files: string[]; roots: string[]; packaging: string[] } {
  const r = seededRandom(seed);
  const dir = (): string => Array.from({ length: Math.floor(r() * 4) }, () => pick(r, SEGMENTS)).join('/');
  const files = Array.from({ length: 40 }, () => {
    const d = dir();
    const leaf = pick(r, ['m.py', '__init__.py', 'stub.pyi', 'cli.py', 'notpy.txt', '__init__.pyi']);
    const f = d === '' ? leaf : `${d}/${leaf}`;
    return pick(r, [f, f, `./${f}`, f.replace(/\//g, '\\'), `/${f}`]);
  });
  const roots = Array.from({ length: Math.floor(r() * 10) }, () => pick(r, [dir(), `${dir()}/`, `./${dir()}`, `.${dir()}`, `${dir()}//`, dir().replace(/\//g, '\\'), '', '.', './']));
  const packaging = Array.from({ length: Math.floor(r() * 12) }, () => `${pick(r, [dir(), '.', 'libs/cli', 'libs/cli'])}/pyproject.toml`);
  return { files, roots, packaging };
}

describe('D13: Python module names and package roots, compared with the quadratic reference', () => {
  it('names every file alike for varied roots', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const { files, roots } = d13Case(seed);
      for (const file of files) {
        expect(moduleNameForFile(file, roots), `seed ${seed}: ${file} under ${JSON.stringify(roots)}`).toBe(oldModuleNameForFile(file, roots));
        // Asked again (the per-file memo answers): the same.
        expect(moduleNameForFile(file, roots)).toBe(oldModuleNameForFile(file, roots));
        expect(moduleNameForFile(file)).toBe(oldModuleNameForFile(file));
      }
    }
  });

  it('keeps the longest matching root', () => {
    const roots = ['libs', 'libs/cli', 'libs/cli/src', 'src'];
    expect(moduleNameForFile('libs/cli/src/dock/cli.py', roots)).toBe('dock.cli');
    expect(moduleNameForFile('libs/cli/dock/__init__.py', roots)).toBe('dock');
    expect(moduleNameForFile('libs/other/m.py', roots)).toBe('other.m');
    expect(moduleNameForFile('libsx/m.py', roots)).toBe('libsx.m');
  });

  it('lists the same roots in the same order', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const { files, packaging } = d13Case(seed);
      const sources = files.map((file) => ({ file, text: '' }));
      if (seed % 3 === 0) sources.push({ file: 'src/__init__.py', text: '' }, { file: 'libs/cli/__init__.py', text: '' });
      expect(pythonPackageRoots(packaging, sources as never), `seed ${seed}`).toEqual(oldPythonPackageRoots(packaging, sources));
    }
  });

  it('names 5,000 files under 10,000 package roots in well under the budget', () => {
    const packaging = Array.from({ length: 5000 }, (_, i) => `pk/p${i}/pyproject.toml`);
    const sources = Array.from({ length: 5000 }, (_, i) => ({ file: `pk/p${i}/m.py`, text: 'x = 1\n' }));
    const started = performance.now();
    const roots = pythonPackageRoots(packaging, sources as never);
    // Several callers ask for every file.
    for (let round = 0; round < 4; round++) for (const s of sources) moduleNameForFile(s.file, roots);
    const ms = performance.now() - started;
    expect(roots).toHaveLength(10001);
    expect(moduleNameForFile('pk/p4999/m.py', roots)).toBe('m');
    expect(moduleNameForFile('pk/p7/src/pkg/__init__.py', roots)).toBe('pkg');
    expect(ms).toBeLessThan(3000);
  });
});
