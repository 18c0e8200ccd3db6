/** Compiled JavaScript mapped back to its TypeScript source: source maps, tsconfig outDir/rootDir (issue #30 item 3). */
import { describe, expect, it } from 'vitest';
import { compiledSourceMapper, readOutputLayout } from '../src/extract/typescript/compiled.js';

const reader = (files: Record<string, string>) => (file: string): string | undefined => files[file];

describe('readOutputLayout', () => {
  it('follows relative extends (a string or a list, later entries winning), resolving each path against its own file', () => {
    const files = {
      'packages/cli/tsconfig.json': '{ "extends": ["../../tsconfig.a.json", "../../configs/b"], "include": ["./source/**/*"] }',
      'tsconfig.a.json': '{ "compilerOptions": { "outDir": "wrong" } }',
      // JSONC: comments and trailing commas, as tsc accepts them.
      'configs/b.json': '{\n  // output beside the configs\n  "compilerOptions": { "outDir": "../packages/cli/compiled", },\n}',
    };
    expect(readOutputLayout('packages/cli/tsconfig.json', reader(files))).toEqual({
      tsconfig: 'packages/cli/tsconfig.json',
      outDir: 'packages/cli/compiled',
      rootDirs: ['packages/cli/source', 'packages/cli'],
    });
  });

  it('takes rootDir when set; no outDir in the chain, or a package extends, gives nothing', () => {
    expect(readOutputLayout('tsconfig.json', reader({ 'tsconfig.json': '{ "compilerOptions": { "outDir": "./out/", "rootDir": "lib" } }' }))).toEqual({ tsconfig: 'tsconfig.json', outDir: 'out', rootDirs: ['lib'] });
    expect(readOutputLayout('tsconfig.json', reader({ 'tsconfig.json': '{ "extends": "@tsconfig/node20/tsconfig.json" }' }))).toBeUndefined();
    expect(readOutputLayout('tsconfig.json', reader({ 'tsconfig.json': '{ "extends": "./tsconfig.json", "compilerOptions": {} }' }))).toBeUndefined();
  });
});

describe('compiledSourceMapper', () => {
  const ts = new Set(['lib/cli.ts', 'lib/admin/entry.ts', 'src/cli.ts', 'tools/x.ts']);
  it('prefers a listed source map, then the tsconfig layout, then the conventional layouts', () => {
    const files = {
      'tsconfig.json': '{ "compilerOptions": { "outDir": "bin-out", "rootDir": "lib" } }',
      'admin.js.map': '{ "version": 3, "sourceRoot": "lib", "sources": ["webpack:///x", "admin/entry.ts"], "mappings": "" }',
    };
    const mapper = compiledSourceMapper(ts, new Set(Object.keys(files)), reader(files));
    expect(mapper.declared('admin.js')).toBe('lib/admin/entry.ts');
    expect(mapper.declared('bin-out/cli.js')).toBe('lib/cli.ts');
    expect(mapper.declared('dist/cli.js')).toBeUndefined();
    expect(mapper.source('dist/cli.js')).toBe('src/cli.ts');
    // Bundler output keeps the entry's name, not its folder: the one same-named source of the package.
    const bundled = compiledSourceMapper(new Set(['packages/cli/src/app.mts', 'packages/cli/src/util/app.ts', 'packages/cli/src/app.test.ts', 'packages/other/src/main.ts']), new Set(), reader({}));
    expect(bundled.source('packages/cli/dist/esm/app.js')).toBe('packages/cli/src/app.mts');
    expect(bundled.source('packages/cli/dist/esm/main.js')).toBeUndefined();
    // A map that is not listed is not read.
    expect(compiledSourceMapper(ts, new Set(['tsconfig.json']), reader(files)).declared('admin.js')).toBeUndefined();
  });
});
