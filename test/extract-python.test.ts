/** Golden-file tests for Python extraction and entry points (fixtures/extract/python/<case>/expected.json), plus edge-case unit tests. */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeGoldenCases, listFiles } from './golden.js';
import { readEntryPoints } from '../src/extract/python/entry-points.js';
import { readSetupPyEntryPoints } from '../src/extract/python/setup-py.js';
import { extractPython, moduleNameForFile, type PythonSource } from '../src/extract/python/index.js';
import { resolveRelativeModule } from '../src/extract/python/module-name.js';
import { cleandoc, unescapePython } from '../src/extract/python/values.js';
import { loadUnicodeNames } from '../src/extract/python/unicode-names.js';

const casesDir = fileURLToPath(new URL('../fixtures/extract/python/', import.meta.url));


/** Runs both extractors over a case folder and serialises the result stably. */
async function runCase(caseDir: string): Promise<unknown> {
  const files = listFiles(caseDir)
    .map((path) => relative(caseDir, path).split('\\').join('/'))
    .filter((file) => file !== 'expected.json');
  const read = (file: string): { file: string; text: string } => ({ file, text: readFileSync(join(caseDir, file), 'utf8') });
  const sources: PythonSource[] = files.filter((f) => f.endsWith('.py')).map(read);
  const packaging = files.filter((f) => f.endsWith('pyproject.toml') || f.endsWith('setup.cfg')).map(read);
  const result: Record<string, unknown> = {};
  const diagnostics = [];
  if (sources.length > 0) {
    const python = await extractPython(sources);
    result['classes'] = python.classes;
    result['functionConfigs'] = Object.fromEntries([...python.functionConfigs.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    diagnostics.push(...python.diagnostics);
  }
  if (packaging.length > 0) {
    const entry = readEntryPoints(packaging);
    result['entryPoints'] = entry.entryPoints;
    diagnostics.push(...entry.diagnostics);
  }
  result['diagnostics'] = diagnostics;
  return JSON.parse(JSON.stringify(result));
}

describeGoldenCases('python extraction fixtures', casesDir, runCase);

describe('moduleNameForFile', () => {
  it('maps files and packages to dotted names', () => {
    expect(moduleNameForFile('a/b/c.py')).toBe('a.b.c');
    expect(moduleNameForFile('a/b/__init__.py')).toBe('a.b');
    expect(moduleNameForFile('pkg/__init__.py')).toBe('pkg');
    expect(moduleNameForFile('mod.pyi')).toBe('mod');
  });
  it('strips a package root (src layout by default) but not a lookalike prefix', () => {
    expect(moduleNameForFile('src/pkg/mod.py')).toBe('pkg.mod');
    expect(moduleNameForFile('src/pkg/mod.py', [])).toBe('src.pkg.mod');
    expect(moduleNameForFile('srcx/pkg/mod.py')).toBe('srcx.pkg.mod');
    expect(moduleNameForFile('libs/core/src/pkg/mod.py', ['libs/core/src', 'libs'])).toBe('pkg.mod');
  });
});

describe('resolveRelativeModule', () => {
  it('follows Python package-relative rules', () => {
    expect(resolveRelativeModule('pkg.sub.mod', false, 1, 'base')).toBe('pkg.sub.base');
    expect(resolveRelativeModule('pkg.sub.mod', false, 2, 'other')).toBe('pkg.other');
    expect(resolveRelativeModule('pkg.sub', true, 1, '')).toBe('pkg.sub');
    expect(resolveRelativeModule('pkg', false, 3, 'x')).toBeUndefined();
  });
});

describe('string helpers', () => {
  it('unescapes Python escapes and keeps unknown ones', () => {
    expect(unescapePython('a\\tb\\n\\x41\\u00e9\\q\\\\')).toBe('a\tb\nAé\\q\\');
  });
  it('decodes \\N{name} as CPython does: names and aliases in any ASCII case, Hangul and CJK computed; anything else unknown (s46 sweep H12)', async () => {
    await loadUnicodeNames();
    // Each expectation checked with CPython 3.11 (`eval('"…"')`).
    const cases: Array<[string, string | undefined]> = [
      ['--n\\N{LATIN SMALL LETTER A}me', '--name'],
      ['\\N{latin small letter a}', 'a'],
      ['\\N{LF}\\N{NULL}\\N{nul}\\N{BYTE ORDER MARK}', '\n\0\0\ufeff'],
      ['\\N{LATIN CAPITAL LETTER GHA}\\N{LATIN CAPITAL LETTER OI}', '\u01a2\u01a2'],
      ['\\N{HANGUL SYLLABLE HAN}\\N{HANGUL SYLLABLE GA}', '\ud55c\uac00'],
      ['\\N{CJK UNIFIED IDEOGRAPH-4E01}\\N{CJK UNIFIED IDEOGRAPH-04E01}\\N{CJK UNIFIED IDEOGRAPH-2A700}', '\u4e01\u4e01\u{2a700}'],
      ['\\N{cjk compatibility ideograph-f900}\\N{NUSHU CHARACTER-1B170}\\N{TANGUT COMPONENT-001}', '\uf900\u{1b170}\u{18800}'],
      ['\\N{cjk unified ideograph-4E01}', undefined],
      ['\\N{CJK UNIFIED IDEOGRAPH-4e01}', undefined],
      ['\\N{hangul syllable han}', undefined],
      ['\\N{HANGUL SYLLABLE G}', undefined],
      ['\\N{TANGUT IDEOGRAPH-17000}', undefined],
      ['\\N{KEYCAP NUMBER SIGN}', undefined], // a named sequence
      ['\\N{LATIN SMALL  LETTER A}', undefined],
      ['\\N{ LATIN SMALL LETTER A}', undefined],
      ['\\N{LATIN SMALL LETTER FOO}', undefined],
      ['\\N{}', undefined],
      ['\\Nx', undefined],
      ['\\N{LATIN SMALL LETTER A', undefined],
      ['\\\\N{LATIN SMALL LETTER A}', '\\N{LATIN SMALL LETTER A}'], // an escaped backslash
    ];
    for (const [body, value] of cases) expect(unescapePython(body), body).toBe(value);
  });
  it('cleans docstrings like inspect.cleandoc', () => {
    expect(cleandoc('\n    first\n      indented\n    last\n  ')).toBe('first\n  indented\nlast');
    expect(cleandoc('  one line  ')).toBe('one line');
  });
});

describe('extractPython edge cases', () => {
  it('keeps src/ in module names when src is itself a package', async () => {
    const result = await extractPython([
      { file: 'src/__init__.py', text: '' },
      { file: 'src/conf.py', text: 'from pydantic import BaseModel\nclass C(BaseModel):\n    x: int = 1\n' },
    ]);
    expect(result.classes.map((c) => c.qualifiedName)).toEqual(['src.conf.C']);
  });

  it('names fields as CPython does, NFKC-normalised (PEP 3131), at their place in the source (s46 sweep H3)', async () => {
    const result = await extractPython([
      { file: 'm.py', text: 'from pydantic import BaseModel\nclass C(BaseModel):\n    \uff4eame: str = "run"\n    \ufb01le: str = "a"\n    plain: int = 1\n' },
    ]);
    const fields = result.classes[0]!.fields;
    expect(fields.map((f) => f.name)).toEqual(['name', 'file', 'plain']);
    expect(fields.map((f) => `${f.location.line}:${f.location.column}`)).toEqual(['3:5', '4:5', '5:5']);
  });

  it('reads class, base, function, keyword, attribute and imported names NFKC-normalised as CPython does (PEP 3131), at their place in the source (s46 sweep H3)', async () => {
    // `ast.parse` of these sources (CPython 3.11) names the classes Base, ToolConfig, Other, the
    // function main, the keyword `default` and the bases `BaseModel`, `Base`, `pydantic.BaseModel`.
    const conf = [
      'import pydantic',
      'from pydantic import BaseModel, Field',
      'class \uff22ase(BaseModel):',
      '    seed: int = Field(\uff44efault=3, description="Random seed.")',
      'class \uff34oolConfig(\uff22ase):',
      '    name: str = Field(default="run")',
      'class Other(pydantic.\uff22aseModel):',
      '    x: int = 1',
      '',
    ].join('\n');
    const app = 'from conf import \uff34oolConfig as \uff34C\ndef \uff4dain(cfg: \uff34C) -> None:\n    \uff34C.model_validate(cfg)\n';
    const result = await extractPython([{ file: 'conf.py', text: conf }, { file: 'app.py', text: app }]);
    expect(result.classes.map((c) => [c.qualifiedName, c.kind, `${c.location.line}:${c.location.column}`])).toEqual([
      ['conf.Base', 'pydantic', '3:7'],
      ['conf.Other', 'pydantic', '7:7'],
      ['conf.ToolConfig', 'pydantic', '5:7'],
    ]);
    const tool = result.classes.find((c) => c.qualifiedName === 'conf.ToolConfig')!;
    expect(tool.fields.map((f) => [f.name, f.default?.text])).toEqual([['seed', '3'], ['name', '"run"']]);
    expect(result.functionConfigs.get('app:main')).toEqual(['conf.ToolConfig']);
  });

  it('handles empty input, star imports and UTF-16 columns', async () => {
    const { canonicalTarget, ...empty } = await extractPython([]);
    expect(empty).toEqual({ classes: [], functionConfigs: new Map(), functionSecondaryConfigs: new Map(), functionConfigsThroughCalls: new Set(), diagnostics: [], stringKeys: new Map(), retained: [], argvDispatch: new Map(), env: { vars: [], dynamic: [] }, envWords: [] });
    expect(canonicalTarget('pkg.cli:main')).toBe('pkg.cli:main');
    const result = await extractPython([
      { file: 'm.py', text: 'from pydantic import *\nclass Ünï(BaseModel):\n    """é"""\n    é_field: int = 1; after: int = 2\n' },
    ]);
    const [cls] = result.classes;
    expect(cls?.name).toBe('Ünï');
    expect(cls?.bases).toEqual(['BaseModel']);
    // Two fields on one line (`;`); columns count UTF-16 code units, like remark.
    expect(cls?.fields.map((f) => [f.name, f.location.column])).toEqual([['é_field', 5], ['after', 23]]);
  });

  it('marks the fields under a "Deprecated"/"Legacy" comment deprecated, up to the next blank line or comment', async () => {
    const text = [
      'from typing import Optional',
      'from pydantic import BaseModel',
      'class DatasetConfig(BaseModel):',
      '    name: str',
      '    # Prefer this over the legacy *_identifier fields below.',
      '    source: Optional[str] = None',
      '    # Deprecated: kept working for backward compatibility.',
      '    gitlab_identifier: Optional[str] = None',
      '    huggingface_identifier: Optional[str] = None',
      '',
      '    license: Optional[str] = None',
      '    # LEGACY',
      '    old_name: str = ""',
      '    # the new spelling',
      '    new_name: str = ""',
    ].join('\n');
    const result = await extractPython([{ file: 'cfg.py', text }]);
    const fields = result.classes[0]?.fields ?? [];
    expect(Object.fromEntries(fields.map((f) => [f.name, f.deprecated]))).toEqual({
      name: false,
      source: false,
      gitlab_identifier: 'Deprecated: kept working for backward compatibility.',
      huggingface_identifier: 'Deprecated: kept working for backward compatibility.',
      license: false,
      old_name: 'LEGACY',
      new_name: false,
    });
  });

  it('does not treat RootModel or an unimported BaseModel as config classes', async () => {
    const result = await extractPython([
      { file: 'r.py', text: 'from pydantic import RootModel\nclass R(RootModel[int]):\n    pass\nclass X(BaseModel):\n    a: int\n' },
    ]);
    expect(result.classes).toEqual([]);
  });

  it('follows re-export cycles without hanging', async () => {
    const result = await extractPython([
      { file: 'a.py', text: 'from b import Base\nclass A(Base):\n    x: int = 1\n' },
      { file: 'b.py', text: 'from a import Base\n' },
    ]);
    expect(result.classes).toEqual([]);
  });
});

describe('functionConfigs call following', () => {
  it('follows up to three calls deep, and no further', async () => {
    const text = [
      'from pydantic import BaseModel',
      'class X(BaseModel):',
      '    a: int = 1',
      'def f4(**cfg): return X(**cfg)',
      'def f3(): f4()',
      'def f2(): f3()',
      'def f1(): f2()',
      'def f0(): f1()',
      '',
    ].join('\n');
    const result = await extractPython([{ file: 'chain.py', text }]);
    expect([...result.functionConfigs.keys()].sort()).toEqual(['chain:f1', 'chain:f2', 'chain:f3', 'chain:f4']);
  });

  it('keeps the classes built from the same input as the first, and prefers them to annotations', async () => {
    const text = [
      'from typing import Optional',
      'from pydantic import BaseModel',
      'class E2E(BaseModel):',
      '    split: str = "train"',
      'class Shared(BaseModel):',
      '    dry_run: bool = False',
      'class Collect(BaseModel):',
      '    agent_name: str',
      'class ParserOptions(BaseModel):',
      '    dotenv_path: str = ".env"',
      'def e2e():',
      '    cfg = get_global_config_dict()',
      '    e2e_config = E2E.model_validate(cfg)',
      '    shared = Shared(**cfg)',
      '    collect = Collect.model_validate({"agent_name": e2e_config.split})',
      'def run(parser_options: Optional[ParserOptions] = None):',
      '    Shared.model_validate(get_global_config_dict())',
      'def hydra_main(cfg: Collect):',
      '    print(cfg)',
      '',
    ].join('\n');
    const result = await extractPython([{ file: 'm.py', text }]);
    // Built from a derived dict: accepted by the command, not its own parameters.
    expect(Object.fromEntries(result.functionSecondaryConfigs)).toEqual({ 'm:e2e': ['m.Collect'] });
    expect(Object.fromEntries(result.functionConfigs)).toEqual({
      'm:e2e': ['m.E2E', 'm.Shared'],
      'm:run': ['m.Shared'],
      'm:hydra_main': ['m.Collect'],
    });
  });

  // s47 sweep K4: `derived` is not an __init__ parameter (dataclasses.fields() gives init=False; `ToolConfig(derived='x')` is a TypeError).
  it('leaves out dataclass fields declared with field(init=False), in stdlib and pydantic dataclasses', async () => {
    const text = [
      'import dataclasses',
      'from dataclasses import dataclass, field',
      'from typing import Annotated',
      'import pydantic',
      '@dataclass',
      'class ToolConfig:',
      '    seed: int = 0',
      '    derived: str = field(init=False, default="")',
      '    cache: dict = dataclasses.field(init=False, default_factory=dict)',
      '    kept: int = field(init=True, default=1)',
      '    tags: list = field(default_factory=list)',
      '@pydantic.dataclasses.dataclass',
      'class Other:',
      '    name: str = "run"',
      '    other: str = field(default="", init=False)',
      '',
    ].join('\n');
    const result = await extractPython([{ file: 'm.py', text }]);
    const fields = (name: string) => result.classes.find((c) => c.name === name)?.fields.map((f) => f.name);
    expect(fields('ToolConfig')).toEqual(['seed', 'kept', 'tags']);
    expect(fields('Other')).toEqual(['name']);
  });

  it('marks classes found only through calls, unless they are built from the parsed arguments', async () => {
    const text = [
      'from dataclasses import dataclass',
      '@dataclass',
      'class Profile:',
      '    name: str',
      '    ramp: int = 1',
      '@dataclass',
      'class RunSettings:',
      '    glaze: str = "clear"',
      '    cone: int = 6',
      'def load(entries):',
      '    return [Profile(**e) for e in entries]',
      'def start(args):',
      '    return RunSettings(**vars(args))',
      'def main():',
      '    load([])',
      'def run():',
      '    start(None)',
      'def own(cfg):',
      '    RunSettings(**cfg)',
      '',
    ].join('\n');
    const result = await extractPython([{ file: 'm.py', text }]);
    expect(Object.fromEntries(result.functionConfigs)).toMatchObject({ 'm:main': ['m.Profile'], 'm:run': ['m.RunSettings'], 'm:own': ['m.RunSettings'] });
    // `main` only reaches a class some helper builds from other data; `run` reaches one built from `vars(args)`.
    expect([...result.functionConfigsThroughCalls].sort()).toEqual(['m:main']);
  });

  it('never follows calls from product code into test, example or script code', async () => {
    const helper = ['from dataclasses import dataclass', '@dataclass', 'class Case:', '    a: int = 1', '    b: int = 2', 'def make(d):', '    return Case(**d)', ''].join('\n');
    const main = ['from scripts.helper import make', 'def main():', '    make({})', ''].join('\n');
    const result = await extractPython([{ file: 'scripts/helper.py', text: helper }, { file: 'pkg/main.py', text: main }]);
    expect(result.functionConfigs.get('scripts.helper:make')).toEqual(['scripts.helper.Case']);
    expect(result.functionConfigs.has('pkg.main:main')).toBe(false);
  });

  it('follows calls into a decorated CLI wrapper whose parameter is annotated with the config', async () => {
    const text = [
      'import draccus',
      'from dataclasses import dataclass',
      '@dataclass',
      'class CalibrateConfig:',
      '    fps: int = 30',
      '@draccus.wrap()',
      'def calibrate(cfg: CalibrateConfig):',
      '    print(cfg)',
      'def helper(cfg: CalibrateConfig):',
      '    print(cfg)',
      'def main():',
      '    calibrate()',
      'def other():',
      '    helper(None)',
      '',
    ].join('\n');
    const result = await extractPython([{ file: 'cli.py', text }]);
    expect(Object.fromEntries(result.functionConfigs)).toEqual({
      'cli:calibrate': ['cli.CalibrateConfig'],
      'cli:helper': ['cli.CalibrateConfig'],
      'cli:main': ['cli.CalibrateConfig'],
    });
  });

  it('counts X(**mapping) but not X(literal args), and drops an ambiguous dispatcher', async () => {
    const text = [
      'from pydantic import BaseModel',
      'class A(BaseModel):',
      '    a: int = 1',
      'class B(BaseModel):',
      '    b: int = 2',
      'def build_a(cfg): return A(**cfg)',
      'def build_b(cfg): return B.model_validate(cfg)',
      'def table(): return A(a=3)',
      'def dispatch(name):',
      '    if name == "a": build_a({})',
      '    else: build_b({})',
      'def main(): build_a({})',
      '',
    ].join('\n');
    const result = await extractPython([{ file: 'm.py', text }]);
    expect(Object.fromEntries(result.functionConfigs)).toEqual({
      'm:build_a': ['m.A'],
      'm:build_b': ['m.B'],
      'm:main': ['m.A'],
    });
  });
});

describe('conditional definitions', () => {
  it('reports a class defined in both branches of an if once (the first definition)', async () => {
    const text = [
      'from pydantic import BaseModel',
      'if V2:',
      '    class Cfg(BaseModel):',
      '        a: int = 1',
      'else:',
      '    class Cfg(BaseModel):',
      '        b: int = 2',
      '',
    ].join('\n');
    const result = await extractPython([{ file: 'cond.py', text }]);
    expect(result.classes.map((c) => [c.qualifiedName, c.fields.map((f) => f.name)])).toEqual([['cond.Cfg', ['a']]]);
  });
});

describe('inherited fields along single-base chains (issue #18: computed once per class, not per MRO)', () => {
  it('keeps Python\'s order and dataclass filtering, whether the chain is walked or the MRO is merged', async () => {
    const text = [
      'from dataclasses import dataclass', 'from pydantic import BaseModel', '',
      '@dataclass', 'class A:', '    a: int = 1', '',
      'class B(A):', '    b: int = 2', '',
      '@dataclass', 'class C(B):', '    c: int = 3', '    a: int = 5', '',
      'class P(BaseModel):', '    x: int = 1', '',
      'class Q(P):', '    y: int = 2', '    x: int = 3', '',
      'class R(Q, A):', '    z: int = 1', '',
    ].join('\n');
    const { classes } = await extractPython([{ file: 'm.py', text }]);
    const fields = Object.fromEntries(classes.map((c) => [c.name, c.fields.map((f) => `${f.name}=${f.default?.text}`)]));
    expect(fields).toEqual({
      A: ['a=1'],
      // B is not a dataclass: its field does not reach C; C's `a` keeps A's position.
      C: ['a=5', 'c=3'],
      P: ['x=1'],
      Q: ['x=3', 'y=2'],
      R: ['a=1', 'x=3', 'y=2', 'z=1'],
    });
  });
});

describe('inherited fields through at most MAX_BASE_DEPTH levels of bases (#33 sweep s26 D6: a 5,000-class chain was quadratic)', () => {
  it('keeps every inherited field of a usual hierarchy a few levels deep, across modules, with no warning', async () => {
    const base = [
      'from dataclasses import dataclass', 'from pydantic import BaseModel, Field', '',
      'class Base(BaseModel):', '    seed: int = Field(default=0, description="Random seed.")', '',
      'class Logging(BaseModel):', '    log_level: str = "info"', '',
      '@dataclass', 'class DBase:', '    host: str = "localhost"', '',
    ].join('\n');
    const mid = [
      'from .base import Base, Logging, DBase', 'from dataclasses import dataclass', '',
      'class Server(Base, Logging):', '    port: int = 8080', '',
      '@dataclass', 'class DMid(DBase):', '    port: int = 1', '',
    ].join('\n');
    const top = [
      'from .mid import Server, DMid', 'from dataclasses import dataclass', '',
      'class App(Server):', '    name: str = "app"', '    seed: int = 1', '',
      '@dataclass', 'class DTop(DMid):', '    name: str = "x"', '',
    ].join('\n');
    const { classes, diagnostics } = await extractPython([
      { file: 'pkg/__init__.py', text: '' },
      { file: 'pkg/base.py', text: base },
      { file: 'pkg/mid.py', text: mid },
      { file: 'pkg/top.py', text: top },
    ]);
    expect(diagnostics).toEqual([]);
    expect(classes.filter((c) => c.unreadFields !== undefined)).toEqual([]);
    const fields = Object.fromEntries(classes.map((c) => [c.name, c.fields.map((f) => `${f.name}=${f.default?.text}${f.overrides ? ` (over ${f.overrides})` : ''}`)]));
    expect(fields).toEqual({
      Base: ['seed=0'],
      Logging: ['log_level="info"'],
      DBase: ['host="localhost"'],
      Server: ['log_level="info"', 'seed=0', 'port=8080'],
      DMid: ['host="localhost"', 'port=1'],
      App: ['log_level="info"', 'seed=1 (over Base)', 'port=8080', 'name="app"'],
      DTop: ['host="localhost"', 'port=1', 'name="x"'],
    });
  });

  it('reads a chain through 64 levels; past them a class keeps its own and the nearer fields, with one warning per file', async () => {
    const lines = ['from pydantic import BaseModel', '', 'class M(BaseModel):', '    m: int = 0', '', 'class C0(BaseModel):', '    f0: int = 0', ''];
    for (let i = 1; i <= 70; i++) lines.push(`class C${i}(C${i - 1}):`, `    f${i}: int = ${i}`, '');
    // The same depth through an MRO merge (two bases), not the single-base walk.
    lines.push('class D0(BaseModel):', '    d0: int = 0', '');
    for (let i = 1; i <= 70; i++) lines.push(`class D${i}(D${i - 1}, M):`, `    d${i}: int = ${i}`, '');
    const { classes, diagnostics } = await extractPython([{ file: 'chain.py', text: lines.join('\n') }]);
    const byName = new Map(classes.map((c) => [c.name, c]));
    const names = (name: string): string[] => byName.get(name)!.fields.map((f) => f.name);
    expect(names('C64')).toEqual(Array.from({ length: 65 }, (_, i) => `f${i}`));
    expect(byName.get('C64')!.unreadFields).toBeUndefined();
    expect(names('C65')).toEqual(['f65']);
    expect(names('C70')).toEqual(['f65', 'f66', 'f67', 'f68', 'f69', 'f70']);
    expect(byName.get('C70')!.unreadFields).toMatchObject({ location: { file: 'chain.py', line: 201, column: 7 }, construct: 'class C65(C64)', cut: '64 levels of bases' });
    expect(names('D64')).toEqual(['m', ...Array.from({ length: 65 }, (_, i) => `d${i}`)]);
    expect(names('D65')).toEqual(['m', 'd65']);
    expect(names('D70')).toEqual(['m', 'd65', 'd66', 'd67', 'd68', 'd69', 'd70']);
    expect(byName.get('D70')!.unreadFields?.construct).toBe('class D65(D64)'); // the base past the limit
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ ruleId: 'parse-error', severity: 'warn', location: { file: 'chain.py', line: 201, column: 7 } });
    expect(diagnostics[0]!.message).toContain('`class C65(C64)` is past 64 levels of bases');
    expect(diagnostics[0]!.message).toContain('(2 classes so cut)');
  });
});

describe('readEntryPoints: [project.entry-points.console_scripts]', () => {
  it('reads the entry-point group form of console scripts, as setuptools does (simonw/files-to-prompt)', () => {
    const text = '[project]\nname = "files-to-prompt"\n\n[project.entry-points.console_scripts]\nfiles-to-prompt = "files_to_prompt.cli:cli"\n';
    const { entryPoints, diagnostics } = readEntryPoints([{ file: 'pyproject.toml', text }]);
    expect(diagnostics).toEqual([]);
    expect(entryPoints).toEqual([
      { name: 'files-to-prompt', target: 'files_to_prompt.cli:cli', location: { file: 'pyproject.toml', line: 5, column: 1 } },
    ]);
  });
});

describe('readEntryPoints: a console script with an empty name (#33 s38 sweep D10)', () => {
  it('is not a command, said once; the other scripts are read (its empty alias made init write a config that does not load)', () => {
    const text = '[project]\nname = "tool"\n\n[project.scripts]\ntool = "tool.cli:main"\n"" = "tool.cli:main"\n" " = "tool.cli:main"\n';
    const { entryPoints, diagnostics } = readEntryPoints([{ file: 'pyproject.toml', text }]);
    expect(entryPoints.map((e) => e.name)).toEqual(['tool']);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ ruleId: 'parse-error', severity: 'warn', message: expect.stringContaining('a console script with an empty name') });
  });
});

describe('readSetupPyEntryPoints: console scripts computed from module constants', () => {
  it("reads '{0}={0}.__main__:main'.format(NAME) (cbeams), f-strings, + and %s; other expressions are skipped", async () => {
    const text = [
      'from setuptools import setup',
      "NAME = 'cbeams'",
      "MOD = NAME + '.cli'",
      'setup(name=NAME, entry_points={"console_scripts": [',
      "    '{0}={0}.__main__:main'.format(NAME),",
      "    f'{NAME}-x = {MOD}:run',",
      "    '%s-y=%s:main' % (NAME, MOD),",
      "    '{name}-z={0}:z'.format(MOD, name=NAME),",
      "    '{}-w={}:w'.format(NAME, unknown()),",
      "    '%d=x:y' % (3,),",
      ']})',
      '',
    ].join('\n');
    const { entryPoints } = await readSetupPyEntryPoints([{ file: 'setup.py', text }]);
    expect(entryPoints.map((e) => `${e.name} -> ${e.target} @${e.location.line}`)).toEqual([
      'cbeams -> cbeams.__main__:main @5',
      'cbeams-x -> cbeams.cli:run @6',
      'cbeams-y -> cbeams.cli:main @7',
      'cbeams-z -> cbeams.cli:z @8',
    ]);
  });
  it('reads entry_points passed through setup(**get_config()) and setup(**CONFIG)', async () => {
    const viaFunction = "from setuptools import setup\nNAME = 'cbeams'\ndef get_config():\n    return dict(name=NAME, entry_points={'console_scripts': ['{0}={0}.__main__:main'.format(NAME)]})\ndef main():\n    setup(**get_config())\n";
    const viaName = "from setuptools import setup\nCONFIG = {'name': 'x', 'entry_points': {'console_scripts': ['x=x.cli:main']}}\nsetup(**CONFIG)\n";
    const a = await readSetupPyEntryPoints([{ file: 'setup.py', text: viaFunction }]);
    const b = await readSetupPyEntryPoints([{ file: 'pkg/setup.py', text: viaName }]);
    expect([...a.entryPoints, ...b.entryPoints].map((e) => `${e.name} -> ${e.target}`)).toEqual(['cbeams -> cbeams.__main__:main', 'x -> x.cli:main']);
  });
});
