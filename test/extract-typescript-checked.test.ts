/** The type checker's reading of alias types (src/extract/typescript/checked.ts): bounded on conditional types nested in `true` branches (#33 sweep s23 D2). */
import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { capConditionalNesting, MAX_CONDITIONAL_NESTING, nameNodeAt } from '../src/extract/typescript/checked.js';
import { MAX_CHECKED_PROPERTIES } from '../src/extract/typescript/checker-core.js';
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

describe('nameNodeAt', () => {
  it('finds the name node of a span the checker thread sent, and nothing for a span no name has', () => {
    const text = 'export interface A {\n  /** The seed. */\n  seed: number;\n  "max-warnings"?: string;\n}\n';
    const sf = parse(text);
    const seed = nameNodeAt(sf, text.indexOf('seed:'), text.indexOf('seed:') + 4);
    expect(seed && ts.isIdentifier(seed) ? seed.text : undefined).toBe('seed');
    // The property's JSDoc is reached from the node's parent, as the extractor reads it.
    expect(seed?.parent && ts.isPropertySignature(seed.parent)).toBe(true);
    const quoted = nameNodeAt(sf, text.indexOf('"max'), text.indexOf('"max') + '"max-warnings"'.length);
    expect(quoted && ts.isStringLiteral(quoted) ? quoted.text : undefined).toBe('max-warnings');
    expect(nameNodeAt(sf, text.indexOf('number'), text.indexOf('number') + 3)).toBeUndefined();
    expect(nameNodeAt(sf, text.length + 5, text.length + 9)).toBeUndefined();
  });
});

// #33 sweep s24 D6 kind: a mapped type over a large template-literal union made every key a parameter.
describe('extractTypeScript on an alias with more properties than a config type may have', () => {
  it('reads it by its syntax with one warning, and still reads a small mapped type with the checker', async () => {
    const digits = "type D = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';\n";
    const text = digits + 'export type Wide = { [P in `k${D}${D}${D}${D}`]?: string };\nexport type Small = { [P in `p${D}`]: number };\n';
    const result = await extractTypeScript([{ file: 'src/types.ts', text }]);
    expect(result.classes.find((c) => c.name === 'Wide')).toBeUndefined();
    expect(result.classes.find((c) => c.name === 'Small')?.fields.map((f) => f.name)).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8', 'p9']);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        ruleId: 'parse-error',
        severity: 'warn',
        location: { file: 'src/types.ts', line: 2, column: 13 },
        message: expect.stringContaining(`type \`Wide\` has 10000 properties as the type checker reads it, more than the ${MAX_CHECKED_PROPERTIES}`),
      }),
    ]);
  });
});

