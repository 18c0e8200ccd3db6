import { describe, expect, it } from 'vitest';
import { importedModuleNames, pythonImports } from '../src/extract/python/imports.js';

describe('pythonImports: the import statements of a Python source, read with patterns', () => {
  it('reads consecutive `from` lines, each on its own (the first one\'s names never run into the next line)', () => {
    expect(pythonImports('from .shared import X\nfrom .options import Y, Z as W\n')).toEqual([
      { dots: 1, module: 'shared', names: ['X'], plain: false },
      { dots: 1, module: 'options', names: ['Y', 'Z'], plain: false },
    ]);
  });

  it('reads parenthesised names across lines, `*`, plain imports with commas and aliases, indented imports', () => {
    const text = [
      'from ..pkg.mod import (',
      '    a,',
      '    b as c,',
      ')',
      'from pkg import *',
      'import os, pkg.sub as s',
      'def f():',
      '    import late.mod',
      'from . import x',
    ].join('\n');
    expect(pythonImports(text)).toEqual([
      { dots: 2, module: 'pkg.mod', names: ['a', 'b'], plain: false },
      { dots: 0, module: 'pkg', names: ['*'], plain: false },
      { dots: 1, module: '', names: ['x'], plain: false },
      { dots: 0, module: 'os', names: [], plain: true },
      { dots: 0, module: 'pkg.sub', names: [], plain: true },
      { dots: 0, module: 'late.mod', names: [], plain: true },
    ]);
  });

  it('reads no import from words that only start like one', () => {
    expect(pythonImports('fromage = 1\nimported = 2\nx = "from"\n')).toEqual([]);
  });
});

describe('importedModuleNames: the dotted modules an import may load', () => {
  it('resolves relative imports against a module and against a package\'s __init__', () => {
    const imports = pythonImports('from . import x\nfrom ..util import y\nfrom .sib import z\n');
    // pkg/sub/a.py
    expect(importedModuleNames(imports, ['pkg', 'sub', 'a'], false)).toEqual(['pkg.sub', 'pkg.sub.x', 'pkg.util', 'pkg.util.y', 'pkg.sub.sib', 'pkg.sub.sib.z']);
    // pkg/sub/__init__.py: the package itself is where `.` points
    expect(importedModuleNames(imports, ['pkg', 'sub'], true)).toEqual(['pkg.sub', 'pkg.sub.x', 'pkg.util', 'pkg.util.y', 'pkg.sub.sib', 'pkg.sub.sib.z']);
  });

  it('gives nothing for a relative import that climbs above the top package', () => {
    expect(importedModuleNames(pythonImports('from ... import x\nfrom .. import y\n'), ['pkg', 'a'], false)).toEqual([]);
  });

  it('gives a plain import\'s packages too only when asked', () => {
    const imports = pythonImports('import pkg.sub.mod\nfrom pkg import *\n');
    expect(importedModuleNames(imports, ['main'], false)).toEqual(['pkg', 'pkg.sub.mod']);
    expect(importedModuleNames(imports, ['main'], false, true)).toEqual(['pkg', 'pkg', 'pkg.sub', 'pkg.sub.mod']);
  });
});
