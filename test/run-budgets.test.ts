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

describe('the class-field estimate', () => {
  it('over-estimates (here: equals) the fields the budget counts in a module of pydantic models', async () => {
    const text = modelModule(0, 10, 100);
    const [scan] = await scanPythonSources([{ file: 'tool/models/m0.py', text }], []);
    const info = scan![2];
    expect(info.classFields).toBe(10 * 100 + 2 * 10);
    expect(estimatedClassFields(text)).toBeGreaterThanOrEqual(info.classFields ?? Infinity);
  });
});
