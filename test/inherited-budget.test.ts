/** The run's budget of inherited fields in the Python, TypeScript and JSON Schema extractors (#33 sweep s27 D10, D11, D14: a fan of n types over one m-field base held n × m fields). */
import { describe, expect, it } from 'vitest';
import { extractJsonSchemas } from '../src/extract/jsonschema/index.js';
import { MAX_INHERITED_FIELDS } from '../src/extract/inherited-budget.js';
import { extractPython } from '../src/extract/python/index.js';
import { extractTypeScript } from '../src/extract/typescript/index.js';
import type { ConfigClass, InputDiagnostic } from '../src/model/types.js';

/** 1,000 types each inheriting one 1,000-field base: 1,000,000 inherited fields without the budget. */
const N = 1000;
const M = 1000;
/** Types whose inherited fields fit in the budget (each takes M). */
const WHOLE = Math.floor(MAX_INHERITED_FIELDS / M);

async function cpuMs(work: () => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** The common checks: the first types whole, the rest own fields only and partly known, one warning for the file. */
function expectFan(classes: ConfigClass[], diagnostics: InputDiagnostic[], file: string, construct: string, noun: string): void {
  const byName = new Map(classes.map((c) => [c.name, c]));
  expect(byName.get('Big')!.fields).toHaveLength(M);
  const first = byName.get('D0')!;
  expect(first.fields).toHaveLength(M + 1);
  expect(first.unreadFields).toBeUndefined();
  expect(byName.get(`D${WHOLE - 1}`)!.fields).toHaveLength(M + 1);
  for (const name of [`D${WHOLE}`, `D${N - 1}`]) {
    const cut = byName.get(name)!;
    expect(cut.fields.map((f) => f.name)).toEqual(['x']);
    expect(cut.unreadFields).toMatchObject({ construct: name === `D${WHOLE}` ? construct : expect.any(String), cut: 'the budget of 200,000 inherited fields per run' });
  }
  const total = classes.reduce((n, c) => n + c.fields.length, 0);
  expect(total).toBeLessThanOrEqual(MAX_INHERITED_FIELDS + M + N + 1); // + a root type's one field
  const notes = diagnostics.filter((d) => d.message.includes('inherited fields per run'));
  expect(notes).toHaveLength(1);
  expect(notes[0]).toMatchObject({ ruleId: 'parse-error', severity: 'warn', location: { file } });
  expect(notes[0]!.message).toContain(`\`${construct}\` is past the budget of 200,000 inherited fields per run: the fields it inherits from its bases are not read (${N - WHOLE} ${noun} so cut); commands using them are partly known`);
}

describe(`at most MAX_INHERITED_FIELDS (${MAX_INHERITED_FIELDS}) inherited fields per run`, () => {
  it('Python: pydantic classes D0…D999 over one 1,000-field class', async () => {
    const text = `from pydantic import BaseModel\n\n\nclass Big(BaseModel):\n${Array.from({ length: M }, (_, i) => `    p${i}: int = 0\n`).join('')}${Array.from({ length: N }, (_, i) => `\n\nclass D${i}(Big):\n    x: int = 0\n`).join('')}`;
    let result: Awaited<ReturnType<typeof extractPython>> | undefined;
    const ms = await cpuMs(async () => {
      result = await extractPython([{ file: 'tool/models.py', text }]);
    });
    expectFan(result!.classes, result!.diagnostics, 'tool/models.py', `class D${WHOLE}(Big)`, 'classes');
    expect(ms).toBeLessThan(15_000);
  });

  it('Python: a class over several bases is bounded by all of them, and a small hierarchy is untouched', async () => {
    const text = [
      'from pydantic import BaseModel', '', 'class A(BaseModel):', '    a: int = 0', '', 'class B(BaseModel):', '    b: int = 0', '',
      'class C(A, B):', '    c: int = 0', '',
    ].join('\n');
    const { classes, diagnostics } = await extractPython([{ file: 'm.py', text }]);
    expect(diagnostics).toEqual([]);
    expect(classes.find((c) => c.name === 'C')!.fields.map((f) => f.name)).toEqual(['b', 'a', 'c']);
    expect(classes.every((c) => c.unreadFields === undefined)).toBe(true);
  });

  it('TypeScript: interfaces D0…D999 extending one 1,000-field interface', async () => {
    const text = `export interface Big {\n${Array.from({ length: M }, (_, i) => `  p${i}?: number;\n`).join('')}}\n${Array.from({ length: N }, (_, i) => `export interface D${i} extends Big { x?: number }\n`).join('')}`;
    let result: Awaited<ReturnType<typeof extractTypeScript>> | undefined;
    const ms = await cpuMs(async () => {
      result = await extractTypeScript([{ file: 'src/config.ts', text }]);
    });
    expectFan(result!.classes, result!.diagnostics, 'src/config.ts', `D${WHOLE} extends Big`, 'types');
    expect(ms).toBeLessThan(15_000);
  });

  it('TypeScript: an alias of a type past the budget lists no fields and stands for the type it names', async () => {
    const big = `export interface Big {\n${Array.from({ length: MAX_INHERITED_FIELDS + 1 }, (_, i) => `  p${i}?: number;\n`).join('')}}\n`;
    const { classes, diagnostics } = await extractTypeScript([{ file: 'src/config.ts', text: `${big}export type Options = Big;\n` }]);
    const alias = classes.find((c) => c.name === 'Options')!;
    expect(alias).toMatchObject({ aliasOf: 'src/config.ts#Big', fields: [], unreadFields: { construct: 'type Options = Big' } });
    expect(diagnostics.filter((d) => d.message.includes('inherited fields per run'))).toHaveLength(1);
  });

  it('JSON Schema: $defs D0…D999 each allOf one 1,000-property definition', async () => {
    const defs: Record<string, unknown> = { Big: { type: 'object', properties: Object.fromEntries(Array.from({ length: M }, (_, i) => [`p${i}`, { type: 'string' }])) } };
    for (let i = 0; i < N; i++) defs[`D${i}`] = { type: 'object', allOf: [{ $ref: '#/$defs/Big' }], properties: { x: { type: 'string' } } };
    const text = JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { a: { type: 'string' } }, $defs: defs });
    let result: ReturnType<typeof extractJsonSchemas> | undefined;
    const ms = await cpuMs(async () => {
      result = extractJsonSchemas([{ file: 'config.schema.json', text }]);
    });
    expectFan(result!.classes, result!.diagnostics, 'config.schema.json', `D${WHOLE}: allOf [#/$defs/Big]`, 'types');
    expect(ms).toBeLessThan(15_000);
  });

  it('JSON Schema: the budget is shared by the run’s files; the warning is in the file of the first type cut', async () => {
    // Four types over a quarter of the budget each fill it (a file may not pass 2 MB).
    const big = { type: 'object', properties: Object.fromEntries(Array.from({ length: MAX_INHERITED_FIELDS / 4 }, (_, i) => [`p${i}`, { type: 'string' }])) };
    const over = (name: string) => [name, { type: 'object', allOf: [{ $ref: '#/definitions/Big' }], properties: { a: { type: 'string' } } }];
    const first = JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', definitions: { Big: big, ...Object.fromEntries(['A', 'B', 'C', 'E'].map(over)) } });
    const second = JSON.stringify({
      $schema: 'http://json-schema.org/draft-07/schema#',
      definitions: {
        S: { type: 'object', properties: { s: { type: 'string' } } },
        T: { type: 'object', allOf: [{ $ref: '#/definitions/S' }], properties: { t: { type: 'string' } } },
        U: { type: 'object', allOf: [{ $ref: '#/definitions/T' }], properties: { u: { type: 'string' } } },
      },
    });
    const { classes, diagnostics } = extractJsonSchemas([
      { file: 'a.schema.json', text: first },
      { file: 'b.schema.json', text: second },
    ]);
    const byName = new Map(classes.map((c) => [c.name, c]));
    expect(byName.get('E')!.fields).toHaveLength(MAX_INHERITED_FIELDS / 4 + 1);
    expect(byName.get('E')!.unreadFields).toBeUndefined();
    expect(byName.get('T')!.fields.map((f) => f.name)).toEqual(['t']);
    expect(byName.get('T')!.unreadFields).toMatchObject({ location: { file: 'b.schema.json' }, construct: 'T: allOf [#/definitions/S]' });
    // The budget is spent: U keeps its own field only, whatever T gives.
    expect(byName.get('U')!.fields.map((f) => f.name)).toEqual(['u']);
    expect(byName.get('U')!.unreadFields).toMatchObject({ construct: 'U: allOf [#/definitions/T]' });
    expect(diagnostics.map((d) => d.location?.file)).toEqual(['b.schema.json']);
    expect(diagnostics[0]!.message).toContain('(2 types so cut)');
  });
});
