/**
 * What the type checker reads for one alias (src/extract/typescript/checker-texts.ts): the
 * statements the alias may depend on, through imports, with everything else blanked in place
 * (#33 sweep s46 H5: docdrift's own `EntryPoint = ReturnType<typeof readEntryPoints>[…]` made the
 * checker bind 169 files).
 */
import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { checkerTexts } from '../src/extract/typescript/checker-texts.js';
import { extractTypeScript } from '../src/extract/typescript/index.js';
import { Resolver } from '../src/extract/typescript/resolve.js';
import { scanModule, type ModuleInfo } from '../src/extract/typescript/scan.js';

function modulesOf(files: Record<string, string>): Map<string, ModuleInfo> {
  return new Map(Object.entries(files).map(([file, text]) => [file, scanModule(file, ts.createSourceFile(`/${file}`, text, ts.ScriptTarget.Latest, true))]));
}

function textsFor(files: Record<string, string>, file: string, name: string): Map<string, string> {
  const modules = modulesOf(files);
  return checkerTexts(modules, new Resolver(modules), file, name, (m) => m.sf.text);
}

/** A project shaped like docdrift's lint.ts: a hub importing many modules, one alias using one function. */
const HUB: Record<string, string> = {
  'src/lint.ts': [
    "import { heavy0 } from './heavy0.js';",
    "import { heavy1 } from './heavy1.js';",
    "import type { Entry } from './types.js';",
    "import * as ns from './ns.js';",
    '',
    '/** Reads the entry points. */',
    'function readEntryPoints(n: number) {',
    '  return { entryPoints: [] as Entry[], count: n };',
    '}',
    '',
    'export function lint() {',
    '  return heavy0() + heavy1() + ns.value;',
    '}',
    '',
    "type EntryPoint = ReturnType<typeof readEntryPoints>['entryPoints'][number];",
    'type Both = EntryPoint & ns.Extra;',
    '',
  ].join('\n'),
  'src/heavy0.ts': "import { deep } from './deep.js';\nexport function heavy0(): number { return deep(); }\n",
  'src/heavy1.ts': 'export function heavy1(): number { return 1; }\n',
  'src/deep.ts': 'export function deep(): number { return 2; }\n',
  'src/types.ts': "import { Name } from './names.js';\nexport interface Entry { name: Name; port: number }\nexport interface Unused { x: number }\nexport const unusedValue = 1;\n",
  'src/names.ts': 'export type Name = string;\nexport type Other = number;\n',
  'src/ns.ts': "import { deep } from './deep.js';\nexport const value = deep();\nexport interface Extra { extra: boolean }\n",
};

describe('checkerTexts', () => {
  it('gives the alias file and the files its type reaches, not the rest of the import graph', () => {
    const texts = textsFor(HUB, 'src/lint.ts', 'EntryPoint');
    expect([...texts.keys()].sort()).toEqual(['src/lint.ts', 'src/names.ts', 'src/types.ts']);
    const lint = texts.get('src/lint.ts') as string;
    expect(lint.length).toBe((HUB['src/lint.ts'] as string).length);
    expect(lint.split('\n').length).toBe((HUB['src/lint.ts'] as string).split('\n').length);
    expect(lint).toContain('function readEntryPoints(n: number)');
    expect(lint).toContain("import type { Entry } from './types.js';");
    expect(lint).not.toContain('heavy0');
    expect(lint).not.toContain('export function lint');
    // Offsets are those of the original: the alias is where it was.
    expect(lint.indexOf('type EntryPoint')).toBe((HUB['src/lint.ts'] as string).indexOf('type EntryPoint'));
    const types = texts.get('src/types.ts') as string;
    expect(types).toContain('export interface Entry');
    expect(types).not.toContain('Unused');
    expect(types).not.toContain('unusedValue');
    expect(texts.get('src/names.ts')).toContain('export type Name = string;');
    expect(texts.get('src/names.ts')).not.toContain('Other');
  });

  it('reads a namespace import whole, and what that module imports', () => {
    const texts = textsFor(HUB, 'src/lint.ts', 'Both');
    expect([...texts.keys()].sort()).toEqual(['src/deep.ts', 'src/lint.ts', 'src/names.ts', 'src/ns.ts', 'src/types.ts']);
    expect(texts.get('src/ns.ts')).toBe(HUB['src/ns.ts']);
  });

  it('follows `export { a as b } from`, `export * from`, default exports and `import()` types', () => {
    const files: Record<string, string> = {
      'src/config.ts': "import Def from './def.js';\nimport { Renamed } from './barrel.js';\nexport type Config = Def & Renamed & import('./typed.js').Typed;\n",
      'src/def.ts': 'interface Hidden { a: number }\nexport default interface Def extends Hidden { d: string }\nexport interface NotThis { n: number }\n',
      'src/barrel.ts': "export { Inner as Renamed } from './inner.js';\nexport * from './star.js';\nexport { Never } from './never.js';\n",
      'src/inner.ts': 'export interface Inner { i: number }\nexport interface Sibling { s: number }\n',
      'src/star.ts': 'export interface Starred { t: number }\n',
      'src/never.ts': 'export interface Never { v: number }\n',
      'src/typed.ts': 'export interface Typed { y: number }\nexport interface Also { z: number }\n',
    };
    const texts = textsFor(files, 'src/config.ts', 'Config');
    expect([...texts.keys()].sort()).toEqual(['src/barrel.ts', 'src/config.ts', 'src/def.ts', 'src/inner.ts', 'src/typed.ts']);
    expect(texts.get('src/def.ts')).toContain('interface Hidden');
    expect(texts.get('src/def.ts')).not.toContain('NotThis');
    expect(texts.get('src/inner.ts')).not.toContain('Sibling');
    expect(texts.get('src/barrel.ts')).not.toContain('Never');
    expect(texts.get('src/typed.ts')).toBe(files['src/typed.ts']);
    // A name only a star export can give: the star module is read for it.
    const starred = textsFor({ ...files, 'src/config.ts': "import { Starred } from './barrel.js';\nexport type Config = Partial<Starred>;\n" }, 'src/config.ts', 'Config');
    expect([...starred.keys()].sort()).toEqual(['src/barrel.ts', 'src/config.ts', 'src/star.ts']);
  });

  it('keeps every declaration of a merged name, ambient declarations and side-effect imports', () => {
    const files: Record<string, string> = {
      'src/config.ts': "import './augment.js';\ninterface Base { a: number }\ninterface Base { b: number }\nconst noise = 1;\nexport type Config = Partial<Base>;\n",
      'src/augment.ts': "declare global { interface Window { cfg: number } }\nexport const unrelated = 1;\n",
    };
    const texts = textsFor(files, 'src/config.ts', 'Config');
    expect(texts.get('src/config.ts')).toContain('interface Base { a: number }');
    expect(texts.get('src/config.ts')).toContain('interface Base { b: number }');
    expect(texts.get('src/config.ts')).not.toContain('noise');
    expect(texts.get('src/augment.ts')).toContain('declare global');
    expect(texts.get('src/augment.ts')).not.toContain('unrelated');
  });
});

describe('extractTypeScript with the checker reading only what an alias needs', () => {
  it('gives the same fields as reading every file whole', async () => {
    const result = await extractTypeScript(Object.entries(HUB).map(([file, text]) => ({ file, text })));
    const entry = result.classes.find((c) => c.name === 'EntryPoint');
    expect(entry?.fields.map((f) => [f.name, f.type, f.location.file])).toEqual([
      ['name', 'string', 'src/types.ts'],
      ['port', 'number', 'src/types.ts'],
    ]);
    const both = result.classes.find((c) => c.name === 'Both');
    expect(both?.fields.map((f) => f.name)).toEqual(['name', 'port', 'extra']);
    expect(result.diagnostics).toEqual([]);
  });
});

describe('checkerTexts on identifiers', () => {
  it('follows JSDoc types but not `{@link}` targets, strings or prose', () => {
    const files: Record<string, string> = {
      'src/config.js': [
        "import { make } from './make.js';",
        "import { Shape } from './shape.js';",
        '/** Built by {@link make}; see "noise" and the helper of the same name. */',
        "export const NAMES = /** @type {Shape[]} */ (['noise']);",
        'function noise() { return make(); }',
        '/** @typedef {Record<(typeof NAMES)[number], string>} Config */',
        'export const x = 1;',
        '',
      ].join('\n'),
      'src/make.js': 'export function make() { return 1; }\n',
      'src/shape.js': 'export class Shape {}\n',
    };
    const modules = modulesOf(files);
    const texts = checkerTexts(modules, new Resolver(modules), 'src/config.js', 'NAMES', (m) => m.sf.text);
    expect([...texts.keys()].sort()).toEqual(['src/config.js', 'src/shape.js']);
    expect(texts.get('src/config.js')).not.toContain('function noise');
    expect(texts.get('src/config.js')).not.toContain("import { make }");
  });
});
