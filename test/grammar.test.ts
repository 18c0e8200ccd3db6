/**
 * The Python grammar docdrift ships (grammars/, issue #34 item 1): the `.wasm` that
 * scripts/vendor-grammar.mjs took from the tree-sitter-python package, checked against the version
 * and sha256 it recorded, and loadable by the web-tree-sitter that package.json allows.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LANGUAGE_VERSION, Language, MIN_COMPATIBLE_VERSION, Parser } from 'web-tree-sitter';
import { describe, expect, it } from 'vitest';
import { PYTHON_GRAMMAR_WASM, getPythonParser } from '../src/extract/python/parser.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const record = JSON.parse(readFileSync(path.join(ROOT, 'grammars/tree-sitter-python.json'), 'utf8')) as {
  package: string;
  version: string;
  file: string;
  tarballIntegrity: string;
  sha256: string;
  bytes: number;
};
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  files: string[];
};

describe('grammars/tree-sitter-python.wasm', () => {
  it('is the file scripts/vendor-grammar.mjs recorded: same sha256 and size', () => {
    const wasm = readFileSync(path.join(ROOT, 'grammars', record.file));
    expect(record.package).toBe('tree-sitter-python');
    expect(record.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(record.tarballIntegrity).toMatch(/^sha512-/);
    expect(wasm.length).toBe(record.bytes);
    expect(createHash('sha256').update(wasm).digest('hex')).toBe(record.sha256);
    expect(path.resolve(PYTHON_GRAMMAR_WASM)).toBe(path.join(ROOT, 'grammars', record.file));
  });

  it('ships in the package, and the native tree-sitter-python package is no dependency at all', () => {
    expect(pkg.files).toContain('grammars/tree-sitter-python.wasm');
    expect(pkg.files).toContain('grammars/tree-sitter-python.json');
    expect(pkg.dependencies['tree-sitter-python']).toBeUndefined();
    expect(pkg.devDependencies['tree-sitter-python']).toBeUndefined();
  });

  it('loads in web-tree-sitter (its ABI is one the runtime supports) and parses Python', async () => {
    await Parser.init();
    const language = await Language.load(PYTHON_GRAMMAR_WASM);
    expect(language.abiVersion).toBeLessThanOrEqual(LANGUAGE_VERSION);
    expect(language.abiVersion).toBeGreaterThanOrEqual(MIN_COMPATIBLE_VERSION);
    const parser = await getPythonParser();
    const tree = parser.parse('class C(BaseModel):\n    x: int = 1\n')!;
    expect(tree.rootNode.hasError).toBe(false);
    expect(tree.rootNode.firstChild?.type).toBe('class_definition');
  });
});
