/** The type checker's reading of alias types (src/extract/typescript/checked.ts): bounded on conditional types nested in `true` branches (#33 sweep s23 D2). */
import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { capConditionalNesting, MAX_CONDITIONAL_NESTING } from '../src/extract/typescript/checked.js';
import { extractTypeScript } from '../src/extract/typescript/index.js';

/** `export type <name> = string extends string ? …(n times) <inner> : never…`. */
const nested = (name: string, n: number, inner: string): string => `export type ${name} = ${'string extends string ? '.repeat(n)}${inner}${' : never'.repeat(n)};\n`;
const parse = (text: string): ts.SourceFile => ts.createSourceFile('types.ts', text, ts.ScriptTarget.Latest, true);

describe('capConditionalNesting', () => {
  it('leaves a file alone up to the bound, and a chain nested in `false` branches', () => {
    const within = nested('T', MAX_CONDITIONAL_NESTING, '{ seed: number }');
    expect(capConditionalNesting(parse(within))).toEqual({ text: within, cuts: 0 });
    const chain = `export type U<X> = ${Array.from({ length: 40 }, (_, i) => `X extends ${i} ? "v${i}" : `).join('')}never;\n`;
    expect(capConditionalNesting(parse(chain))).toEqual({ text: chain, cuts: 0 });
  });

  it('replaces the conditional type past the bound by `any`, keeping every other position', () => {
    const text = `// head\n${nested('T', 12, '{ seed: number }')}export interface After { port: number }\n`;
    const capped = capConditionalNesting(parse(text));
    expect(capped.cuts).toBe(1);
    expect(capped.text.length).toBe(text.length);
    expect(capped.text.split('\n').length).toBe(text.split('\n').length);
    expect(capped.text).toContain(`${'string extends string ? '.repeat(MAX_CONDITIONAL_NESTING)}any `);
    expect(capped.text).not.toContain('seed');
    expect(capped.text.endsWith('export interface After { port: number }\n')).toBe(true);
    expect(capped.first).toEqual({ line: 2, column: 17 + 'string extends string ? '.length * MAX_CONDITIONAL_NESTING });
  });

  it('walks 2,000 levels without recursion', () => {
    const capped = capConditionalNesting(parse(nested('T', 2000, 'string')));
    expect(capped.cuts).toBe(1);
  });
});

describe('extractTypeScript on deeply nested conditional type aliases', () => {
  it('reads an alias within the bound with the checker', async () => {
    const result = await extractTypeScript([{ file: 'src/types.ts', text: nested('Config', MAX_CONDITIONAL_NESTING, '{ seed: number }') }]);
    expect(result.classes.find((c) => c.name === 'Config')?.fields.map((f) => f.name)).toEqual(['seed']);
    expect(result.diagnostics).toEqual([]);
  });

  // Before the bound: 18 levels took about 75 s in the checker (exponential in the depth).
  it('gives one warning, not exponential time, for 18 levels', { timeout: 30_000 }, async () => {
    const started = performance.now();
    const text = nested('T', 18, 'string') + 'export type Config = { [K in "port"]: number };\n';
    const result = await extractTypeScript([{ file: 'src/types.ts', text }]);
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(result.classes.find((c) => c.name === 'Config')?.fields.map((f) => f.name)).toEqual(['port']);
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({ ruleId: 'parse-error', severity: 'warn', location: { file: 'src/types.ts', line: 1 } });
    expect(result.diagnostics[0]?.message).toContain('(1 type so cut)');
  });

  // Before the bound, 2,000 levels overflowed the checker's stack, and no later alias was read with it.
  it('reads the aliases after one nested 2,000 deep with the checker', async () => {
    const text = nested('Deep', 2000, '{ seed: number }') + 'export type Config = { [K in "port"]: number };\n';
    const result = await extractTypeScript([{ file: 'src/types.ts', text }]);
    expect(result.classes.find((c) => c.name === 'Config')?.fields.map((f) => f.name)).toEqual(['port']);
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]?.message).toContain('(1 type so cut)');
  });
});
