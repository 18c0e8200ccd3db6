/** The run's budgets on many small sources (#33 s47 sweep K1, K5): per-file cost in the TypeScript budget, the files of the config's types first, and the class-field estimate that keeps the Python scan worker off modules the budget leaves unread. */
import { describe, expect, it } from 'vitest';
import { budgetedTypeScriptTokens, countTypeScriptTokens, MAX_TYPESCRIPT_RUN_TOKENS, TYPESCRIPT_TOKENS_PER_FILE, typeScriptSourcesOverBudget } from '../src/extract/typescript/budget.js';
import { configTypeFiles } from '../src/engine/typescript-facts.js';
import { estimatedClassFields } from '../src/engine/python-flags.js';
import { scanPythonSources } from '../src/extract/python/index.js';

/** One module of the K1 shape: an interface of 20 commented optional fields and three aliases (about 190 tokens). */
function smallModule(i: number): string {
  const prev = i > 0 ? `import type { I${i - 1} } from './m${i - 1}';\n` : '';
  const fields = Array.from({ length: 20 }, (_, j) => `  /** Field ${j} of ${i}. @default ${j} */\n  f${j}?: number;\n`).join('');
  return `${prev}export interface I${i} {\n${fields}}\nexport type P${i} = { [K in keyof I${i} as \`x_\${string & K}\`]: I${i}[K] };\nexport type Q${i} = Partial<I${i}>${i > 0 ? ` & Pick<I${i - 1}, "f0">` : ''};\n`;
}

/** One module of the K5 shape: `classes` pydantic models of `fields` `Field(...)` fields each. */
function modelModule(m: number, classes: number, fields: number): string {
  let src = 'from pydantic import BaseModel, Field\n\n';
  for (let c = 0; c < classes; c++) {
    src += `class M${m}_${c}(BaseModel):\n${Array.from({ length: fields }, (_, j) => `    f${j}: int = Field(default=${j}, description="F ${j}.")\n`).join('')}\n`;
  }
  return src;
}

describe('the TypeScript budget counts what each file costs', () => {
  it('counts each source its tokens and the per-file overhead', () => {
    const text = smallModule(5);
    expect(budgetedTypeScriptTokens(text)).toBe(countTypeScriptTokens(text) + TYPESCRIPT_TOKENS_PER_FILE);
    expect(TYPESCRIPT_TOKENS_PER_FILE).toBeGreaterThan(0);
  });

  it('leaves out part of 3,000 small modules whose tokens alone are under the budget, the highest-ranked kept', () => {
    const sources = Array.from({ length: 3000 }, (_, i) => ({ file: `src/mods/m${i}.ts`, text: smallModule(i) }));
    const tokens = sources.reduce((n, s) => n + countTypeScriptTokens(s.text), 0);
    // The sweep's input: under the budget by its tokens (the old count read all 3,000 files, 516-545 MB).
    expect(tokens).toBeLessThan(MAX_TYPESCRIPT_RUN_TOKENS);
    const over = new Set(typeScriptSourcesOverBudget(sources, (file) => (file === 'src/mods/m2999.ts' ? 0 : file === 'src/mods/m2998.ts' ? 1 : 9)));
    expect(over.size).toBeGreaterThan(500);
    const read = sources.filter((s) => !over.has(s.file));
    expect(read.reduce((n, s) => n + budgetedTypeScriptTokens(s.text), 0)).toBeLessThanOrEqual(MAX_TYPESCRIPT_RUN_TOKENS);
    expect(over.has('src/mods/m2999.ts')).toBe(false);
    expect(over.has('src/mods/m2998.ts')).toBe(false);
  });

  it('reads every source of a project of ordinary size', () => {
    // 500 modules of about 1,000 tokens (500,000 tokens, 550,000 counted): all read.
    const body = Array.from({ length: 90 }, (_, j) => `export const v${j} = f(${j}, "s");`).join('\n');
    const sources = Array.from({ length: 500 }, (_, i) => ({ file: `src/m${i}.ts`, text: `${body}\n// ${i}\n` }));
    expect(countTypeScriptTokens(sources[0]!.text)).toBeGreaterThan(900);
    expect(typeScriptSourcesOverBudget(sources, () => 0)).toEqual([]);
  });
});

describe('the files declaring the config types', () => {
  const sources = [
    { file: 'src/a.ts', text: "import type { Q9 } from './b';\nexport const x: Q9 = {};\n// Q9 is the config\n" },
    { file: 'src/b.ts', text: 'export interface I9 { a?: number }\nexport type Q9 = Partial<I9>;\n' },
    { file: 'src/c.ts', text: 'export type Q90 = {};\nexport type XQ9 = {};\n' },
    { file: 'src/d.ts', text: 'export interface Options { seed?: number }\n' },
    { file: 'src/e.ts', text: 'export const Q9x = 1;\n' },
  ];

  it('finds a bare name where it is declared, not where it is imported, used or mentioned', () => {
    expect(configTypeFiles(sources, ['Q9'])).toEqual(['src/b.ts']);
    expect(configTypeFiles(sources, ['pkg.mod.Options'])).toEqual(['src/d.ts']);
  });

  it('takes the file of a `path#Name` as it is, and finds none for no names', () => {
    expect(configTypeFiles(sources, ['src/e.ts#Q9x', 'Q9'])).toEqual(['src/b.ts', 'src/e.ts']);
    expect(configTypeFiles(sources, [])).toEqual([]);
  });
});

/** The budget's count of one module's class fields (`ModuleInfo.classFields`), read by the scanner. */
async function classFieldsOf(text: string): Promise<number | undefined> {
  const [scan] = await scanPythonSources([{ file: 'tool/models/m0.py', text }], []);
  return scan![2].classFields;
}

describe('the class-field estimate', () => {
  it('over-estimates the fields the budget counts in a module of pydantic models', async () => {
    const text = modelModule(0, 10, 100);
    // `fN: int = Field(default=N, description="F N.")`: 22 syntax nodes, two units each; a class two.
    expect(await classFieldsOf(text)).toBe(10 * 100 * 2 + 2 * 10);
    expect(estimatedClassFields(text)).toBeGreaterThanOrEqual((await classFieldsOf(text)) ?? Infinity);
  });
});

describe('the class-field budget counts what each field costs (#33 K5-heavy)', () => {
  const model = (field: string, docstring = ''): string => `from typing import Annotated, Literal, Optional\nfrom pydantic import BaseModel, ConfigDict, Field\n\nclass M(BaseModel):\n${docstring}${field}`;

  it('counts a plain field one and a class two', async () => {
    expect(await classFieldsOf(model('    seed: int = 0\n'))).toBe(1 + 2);
    expect(await classFieldsOf(model('    name: str = "run"\n    seed: int = 0\n', '    """Options."""\n'))).toBe(2 + 2);
  });

  it('counts a field one per 12 syntax nodes or 64 characters of its statement', async () => {
    const heavy = '    f1: Annotated[Optional[int], Field(default=1, ge=0, le=1000, alias="F1", description="Field 1 of the model, in units of things; see the reference.")] = 1\n';
    expect(await classFieldsOf(model(heavy))).toBe(5 + 2); // 57 nodes, 153 characters
    const literal = `    mode: Literal[${Array.from({ length: 20 }, (_, k) => `"v${k}"`).join(', ')}] = "v0"\n`;
    expect(await classFieldsOf(model(literal))).toBeGreaterThanOrEqual(8);
    const description = `    f1: int = Field(default=1, description="${'x'.repeat(3000)}")\n`;
    expect(await classFieldsOf(model(description))).toBe(Math.ceil((description.length - 5) / 64) + 2);
    // The text estimate stays above the count for each of them.
    for (const field of [heavy, literal, description]) expect(estimatedClassFields(model(field))).toBeGreaterThanOrEqual((await classFieldsOf(model(field))) ?? Infinity);
  });

  it('counts a model_config as a field of its size', async () => {
    const config = `    model_config = ConfigDict(env_prefix="APP_", json_schema_extra={${Array.from({ length: 30 }, (_, k) => `"k${k}": ${k}`).join(', ')}})\n`;
    expect(await classFieldsOf(model(`${config}    seed: int = 0\n`))).toBeGreaterThan(10 + 1 + 2);
    expect(estimatedClassFields(model(`${config}    seed: int = 0\n`))).toBeGreaterThanOrEqual((await classFieldsOf(model(`${config}    seed: int = 0\n`))) ?? Infinity);
  });
});
