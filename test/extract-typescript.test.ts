/** Golden-file tests for TypeScript extraction (fixtures/extract/typescript/<case>/expected.json), plus edge-case unit tests and a timing check. */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeGoldenCases, listFiles } from './golden.js';
import { extractTypeScript, type TypeScriptSource } from '../src/extract/typescript/index.js';
import { sourceCandidates } from '../src/extract/typescript/scan.js';
import { unresolvedConfigClasses } from '../src/engine/lint.js';
import { normaliseConfig } from '../src/config/schema.js';

const casesDir = fileURLToPath(new URL('../fixtures/extract/typescript/', import.meta.url));
const SOURCE = /\.(?:[cm]?ts|tsx|[cm]?js)$/;


function sortedObject<T>(map: Map<string, T>): Record<string, T> {
  return Object.fromEntries([...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Runs the extractor over a case folder and serialises the result stably. */
async function runCase(caseDir: string): Promise<unknown> {
  const files = listFiles(caseDir).map((path) => relative(caseDir, path).split('\\').join('/'));
  const read = (file: string): { file: string; text: string } => ({ file, text: readFileSync(join(caseDir, file), 'utf8') });
  const sources: TypeScriptSource[] = files.filter((f) => SOURCE.test(f)).map(read);
  const packageJson = files.includes('package.json') ? read('package.json') : undefined;
  const result = await extractTypeScript(sources, packageJson);
  return JSON.parse(JSON.stringify({ classes: result.classes, binConfigs: sortedObject(result.binConfigs), diagnostics: result.diagnostics }));
}

describeGoldenCases('typescript extraction fixtures', casesDir, runCase);

describe('sourceCandidates', () => {
  it('maps compiled output and bin scripts back to TypeScript sources', () => {
    expect(sourceCandidates('dist/cli.js')).toEqual(expect.arrayContaining(['src/cli.ts', 'src/cli.mts', 'src/cli.tsx', 'cli.ts']));
    expect(sourceCandidates('dist/cli.mjs').indexOf('src/cli.mts')).toBeLessThan(sourceCandidates('dist/cli.mjs').indexOf('src/cli.ts'));
    expect(sourceCandidates('dist/src/bin.js')).toContain('src/bin.ts');
    expect(sourceCandidates('bin/x.js')).toEqual(expect.arrayContaining(['bin/x.ts', 'src/x.ts', 'src/bin/x.ts']));
    expect(sourceCandidates('./lib')).toContain('./lib/index.ts');
  });
});

describe('extractTypeScript edge cases', () => {
  it('returns nothing for no input and never throws on garbage', async () => {
    expect(await extractTypeScript([])).toEqual({ classes: [], binConfigs: new Map(), binFieldFlags: new Map(), binConfigsBuilt: new Set(), diagnostics: [] });
    const result = await extractTypeScript([{ file: 'a.ts', text: '\u0000\u0001 interface { ]]] class' }], { file: 'package.json', text: '{"bin": ' });
    expect(result.classes).toEqual([]);
    expect(result.diagnostics.map((d) => [d.location.file, d.severity, d.ruleId])).toEqual([
      ['a.ts', 'warn', 'parse-error'],
      ['package.json', 'warn', 'parse-error'],
    ]);
  });

  it('ends inheritance cycles and self-references without hanging', async () => {
    const result = await extractTypeScript([
      { file: 'a.ts', text: "import { B } from './b';\nexport interface A extends B { a: A }\nexport const S = z.object({ s: z.lazy(() => S) });\n" },
      { file: 'b.ts', text: "import { A } from './a';\nexport interface B extends A { b: number }\n" },
    ]);
    expect(result.classes.map((c) => [c.qualifiedName, c.fields.map((f) => f.name)])).toEqual([
      ['a.ts#A', ['b', 'a']],
      ['a.ts#S', ['s']],
      // B was read while A was in progress: the cyclic base contributes nothing (TS2310 anyway).
      ['b.ts#B', ['b']],
    ]);
    expect(result.classes[0]?.fields[1]?.typeRef).toBe('a.ts#A');
    expect(result.classes[1]?.fields[0]?.typeRef).toBe('a.ts#S');
  });

  it('reads zod named imports and z.infer aliases, for fields and for bins', async () => {
    const options = [
      "import { object, string, number } from 'zod';",
      "import * as z from 'zod';",
      'export const Options = object({ name: string(), port: number().optional() });',
      'export type Options = z.infer<typeof Options>;',
      'export interface App { options: Options }',
    ].join('\n');
    const cli = "import type { Options } from './options.js';\nexport function run(opts: Options, verbose = false) {}\n";
    const result = await extractTypeScript(
      [{ file: 'src/options.ts', text: options }, { file: 'src/cli.ts', text: cli }],
      { file: 'package.json', text: JSON.stringify({ name: 'app', bin: { app: 'build/cli.js' } }) },
    );
    expect(result.classes.map((c) => [c.qualifiedName, c.kind])).toEqual([
      ['src/options.ts#App', 'interface'],
      ['src/options.ts#Options', 'zod'],
    ]);
    expect(result.classes[0]?.fields[0]?.typeRef).toBe('src/options.ts#Options');
    expect(result.classes[1]?.fields.map((f) => [f.name, f.type, f.required])).toEqual([['name', 'string', true], ['port', 'number', false]]);
    expect(Object.fromEntries(result.binConfigs)).toEqual({ app: ['src/options.ts#Options'] });
  });

  it('drops a bin candidate nested in or inherited by another, and counts new X() last', async () => {
    const text = [
      'interface Base { root: string }',
      'interface Server { port: number }',
      'interface Options extends Base { server: Server }',
      'class Engine { verbose = false }',
      'const { values } = parseArgs({ options: {} });',
      'const base: Base = { root: values.root };',
      'const opts: Options = { ...base, server: { port: Number(values.port) } };',
      'const server: Server = opts.server;',
      'new Engine();',
    ].join('\n');
    const result = await extractTypeScript([{ file: 'src/x.ts', text }], { file: 'package.json', text: '{"name":"x","bin":{"x":"bin/x.js","y":"dist/y.js"}}' });
    expect(Object.fromEntries(result.binConfigs)).toEqual({ x: ['src/x.ts#Options'] });
    const only = await extractTypeScript([{ file: 'src/y.ts', text: 'class Engine { verbose = false }\nnew Engine();\n' }], {
      file: 'pkg/package.json',
      text: '{"name":"y","bin":{"y":"dist/y.js"}}',
    });
    expect(only.binConfigs.size).toBe(0); // package.json in pkg/: its bin is pkg/dist/y.js
    const rooted = await extractTypeScript([{ file: 'pkg/src/y.ts', text: 'class Engine { verbose = false }\nnew Engine(process.argv);\n' }], {
      file: 'pkg/package.json',
      text: '{"name":"y","bin":{"y":"dist/y.js"}}',
    });
    expect(Object.fromEntries(rooted.binConfigs)).toEqual({ y: ['pkg/src/y.ts#Engine'] });
  });

  it('does not take the parameters of a main that parses its own argv as options', async () => {
    const text = [
      'interface Io { stdout: (s: string) => void; cwd: string }',
      'interface Options { root: string }',
      'export async function main(argv: readonly string[], rawIo: Io) {',
      '  const io: Io = { ...rawIo, cwd: rawIo.cwd };',
      '  const options = parse(argv) as Options;',
      '}',
    ].join('\n');
    const result = await extractTypeScript([{ file: 'src/cli.ts', text }], { file: 'package.json', text: '{"bin":{"c":"dist/cli.js"}}' });
    expect(Object.fromEntries(result.binConfigs)).toEqual({ c: ['src/cli.ts#Options'] });
  });

  it('ignores bins without a string path and a string bin without a package name', async () => {
    const src = [{ file: 'src/cli.ts', text: 'interface O { a: 1 }\nexport function main(o: O) {}\n' }];
    const result = await extractTypeScript(src, { file: 'package.json', text: '{"bin":"dist/cli.js"}' });
    expect(result.binConfigs.size).toBe(0);
    const objectForm = await extractTypeScript(src, { file: 'package.json', text: '{"bin":{"a":1,"b":"dist/cli.js"}}' });
    expect(Object.fromEntries(objectForm.binConfigs)).toEqual({ b: ['src/cli.ts#O'] });
  });

  it('extracts ~300 generated files that import each other', async () => {
    await extractTypeScript([{ file: 'warm.ts', text: 'interface W { a: 1 }' }]);
    const sources: TypeScriptSource[] = [];
    for (let i = 0; i < 300; i++) {
      // Ten base files; every other file extends one of them from another file.
      const base = i % 10;
      const lines = [`import type { Options${base} } from './f${base}.js';`, `import { z } from 'zod';`];
      lines.push(`/** Options ${i}. */`, `export interface Options${i} ${i >= 10 ? `extends Partial<Options${base}> ` : ''}{`);
      for (let j = 0; j < 10; j++) lines.push(`  /** Field ${j}. @default ${j} */`, `  field${i}_${j}?: number;`);
      lines.push('}', `export class Cls${i} { a = 1; constructor(public b = 'x') {} }`);
      lines.push(`export const Schema${i} = z.object({ x: z.string().default('a'), y: z.number().optional() });`);
      lines.push(`export function helper${i}(x: number): number {`, '  return x * 2;', '}');
      sources.push({ file: `src/f${i}.ts`, text: lines.join('\n') });
    }
    const result = await extractTypeScript(sources);
    expect(result.classes.length).toBe(900);
    expect(result.classes.find((c) => c.name === 'Options42')?.fields.length).toBe(20);
    expect(result.diagnostics).toEqual([]);
  });
});

describe('aliases of config types (#33 sweep D11)', () => {
  const fieldsOf = (classes: Array<{ qualifiedName: string; fields: Array<{ name: string }> }>, q: string): string[] | undefined => classes.find((c) => c.qualifiedName === q)?.fields.map((f) => f.name);

  it('reads `type Config = T0` (an alias naming another alias) as a config type with T0\'s fields', async () => {
    const { classes } = await extractTypeScript([{ file: 'src/cli.ts', text: 'export type T0 = { seed: number };\nexport type Config = T0;\n' }]);
    expect(fieldsOf(classes, 'src/cli.ts#Config')).toEqual(['seed']);
    expect(classes.find((c) => c.qualifiedName === 'src/cli.ts#Config')).toMatchObject({ kind: 'type-alias', aliasOf: 'src/cli.ts#T0', bases: ['src/cli.ts#T0'] });
  });

  it('follows chains of aliases, imported aliases, wrappers of them and intersections that end in one', async () => {
    const { classes } = await extractTypeScript([
      { file: 'src/base.ts', text: 'export interface Base { seed: number; name?: string }\nexport type B1 = Base;\n' },
      { file: 'src/cli.ts', text: "import type { B1 } from './base';\nimport * as base from './base';\ntype B2 = B1;\ntype B3 = B2;\nexport type Config = B3;\nexport type Q = base.B1;\nexport type RO = Readonly<B3>;\nexport type P = Partial<Config>;\nexport type I = B3 & { extra: boolean };\n" },
    ]);
    for (const q of ['src/cli.ts#Config', 'src/cli.ts#Q', 'src/cli.ts#RO', 'src/cli.ts#P']) expect(fieldsOf(classes, q), q).toEqual(['seed', 'name']);
    expect(fieldsOf(classes, 'src/cli.ts#I')).toEqual(['seed', 'name', 'extra']);
    // Every alias stands for the type at the end of the chain.
    expect(classes.find((c) => c.qualifiedName === 'src/cli.ts#Config')?.aliasOf).toBe('src/base.ts#Base');
    expect(classes.find((c) => c.qualifiedName === 'src/cli.ts#P')?.fields.every((f) => !f.required)).toBe(true);
  });

  it('ends alias cycles and very long chains without hanging or overflowing', async () => {
    const cycle = await extractTypeScript([{ file: 'a.ts', text: 'export type A = B;\nexport type B = C;\nexport type C = A;\n' }]);
    expect(cycle.classes).toEqual([]);
    const long = Array.from({ length: 3000 }, (_, i) => `export type T${i + 1} = T${i};`).reverse().join('\n');
    const started = performance.now();
    const chain = await extractTypeScript([{ file: 'c.ts', text: `${long}\nexport type T0 = { seed: number };\n` }]);
    expect(performance.now() - started).toBeLessThan(8000);
    // Read from its near end (declared after the type it names) each alias is found.
    const forward = Array.from({ length: 3000 }, (_, i) => `export type T${i + 1} = T${i};`).join('\n');
    const near = await extractTypeScript([{ file: 'd.ts', text: `export type T0 = { seed: number };\n${forward}\n` }]);
    expect(fieldsOf(near.classes, 'd.ts#T3000')).toEqual(['seed']);
    expect(chain.classes.find((c) => c.qualifiedName === 'c.ts#T0')?.fields.map((f) => f.name)).toEqual(['seed']);
  });

  it('lets a config entry name the alias, and a re-export under the same name is not a second candidate', async () => {
    const { classes } = await extractTypeScript([
      { file: 'src/types.ts', text: 'export interface Config { seed: number }\n' },
      { file: 'src/cli.ts', text: "import type { Config as C } from './types';\nexport type Config = C;\nexport type T0 = { a: string };\nexport type Settings = T0;\n" },
    ]);
    const config = normaliseConfig({ commands: { a: { config: ['src/cli.ts#Settings'] }, b: { config: ['Config'] }, c: { config: ['src/cli.ts#Config'] } } } as Parameters<typeof normaliseConfig>[0]);
    expect(unresolvedConfigClasses(config, classes)).toEqual([]);
  });
});
