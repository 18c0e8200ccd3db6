/** Table-driven tests of compareType, normaliseType and formatType (src/model/type-compare.ts). */
import { describe, expect, it } from 'vitest';
import { compareType, formatType, normaliseType } from '../src/model/type-compare.js';

type Row = [code: string | undefined, documented: string, expected: 'same' | 'different' | 'unknown'];

const table: Array<[string, Row[]]> = [
  [
    'optionality',
    [
      ['Optional[int]', 'Optional[int]', 'same'],
      ['Optional[int]', 'int | None', 'same'],
      ['Optional[int]', 'Union[int, None]', 'same'],
      ['Optional[int]', 'None | int', 'same'],
      ['int | None', 'Optional[int]', 'same'],
      ['Union[None, int]', 'typing.Optional[int]', 'same'],
      ['Optional[int]', 'number | undefined', 'same'],
      ['Optional[int]', 'number | null', 'same'],
      ['number | undefined', 'Optional[int]', 'same'],
      ['Optional[int]', 'int', 'same'], // docs commonly omit optionality
      ['Optional[List[str]]', 'list[str]', 'same'],
      ['Optional[int]', 'int, optional', 'same'], // numpydoc
      ['int', 'int, optional', 'same'],
      ['int', 'str (optional)', 'different'],
      ['int', 'Optional[int]', 'unknown'], // docs allow None: often means "has a default"
      ['int', 'int | None', 'unknown'],
      ['Optional[int]', 'str', 'different'],
      ['Optional[int]', 'Optional[str]', 'different'],
      ['Optional[int]', 'int | str', 'different'],
      ['Optional[int]', 'None', 'unknown'],
      ['None', 'None', 'same'],
      ['None', 'null', 'same'],
      ['None', 'int', 'different'],
      ['Optional[Optional[int]]', 'int | None', 'same'],
      ['t.Optional[int]', 'int', 'same'],
    ],
  ],
  [
    'scalars across languages',
    [
      ['str', 'str', 'same'],
      ['str', 'string', 'same'],
      ['string', 'str', 'same'],
      ['str', 'String', 'same'],
      ['bool', 'boolean', 'same'],
      ['boolean', 'bool', 'same'],
      ['int', 'number', 'same'],
      ['number', 'int', 'same'],
      ['float', 'number', 'same'],
      ['number', 'float', 'same'],
      ['int', 'integer', 'same'],
      ['float', 'double', 'same'],
      ['PositiveInt', 'int', 'same'],
      ['typing.Text', 'str', 'same'],
      ['str', 'int', 'different'],
      ['int', 'str', 'different'],
      ['float', 'bool', 'different'],
      ['bool', 'int', 'different'],
      ['int', 'bool', 'different'],
      ['number', 'string', 'different'],
      ['boolean', 'number', 'different'],
      ['int', 'float', 'different'], // docs allow 0.5, the code does not
      ['float', 'int', 'unknown'], // a float field accepts ints: narrower docs, not wrong ones
      ['str', 'bytes', 'unknown'],
    ],
  ],
  [
    'sequences',
    [
      ['List[str]', 'list[str]', 'same'],
      ['List[str]', 'string[]', 'same'],
      ['List[str]', 'Array<string>', 'same'],
      ['string[]', 'List[str]', 'same'],
      ['readonly string[]', 'list[str]', 'same'],
      ['ReadonlyArray<string>', 'list[str]', 'same'],
      ['List[str]', 'List', 'same'],
      ['list', 'list[int]', 'same'],
      ['typing.List[str]', 'list[str]', 'same'],
      ['List[List[int]]', 'number[][]', 'same'],
      ['Array<Array<string>>', 'list[list[str]]', 'same'],
      ['(string | number)[]', 'list[Union[str, int]]', 'same'],
      ['List[Optional[int]]', 'list[int]', 'same'],
      ['List[str]', 'Sequence[str]', 'unknown'],
      ['Sequence[str]', 'list[str]', 'unknown'],
      ['collections.abc.Sequence[str]', 'Sequence[str]', 'same'],
      ['List[str]', 'Tuple[str, ...]', 'unknown'],
      ['Tuple[int, ...]', 'tuple[int, ...]', 'same'],
      ['Tuple[int, int]', 'tuple[int, ...]', 'unknown'],
      ['Tuple[int, str]', '[number, string]', 'same'],
      ['Set[str]', 'list[str]', 'unknown'],
      ['List[str]', 'list[int]', 'different'],
      ['List[int]', 'Sequence[str]', 'different'],
      ['List[str]', 'str', 'different'],
      ['List[str]', 'Dict[str, int]', 'different'],
      ['List[str]', 'List[Any]', 'same'],
      ['List[Any]', 'list[str]', 'same'],
    ],
  ],
  [
    'mappings',
    [
      ['Dict[str, Any]', 'dict[str, Any]', 'same'],
      ['Dict[str, Any]', 'Dict', 'same'],
      ['Dict[str, Any]', 'dict', 'same'],
      ['Dict', 'dict[str, Any]', 'same'],
      ['Dict[str, Any]', 'Record<string, unknown>', 'same'],
      ['Record<string, any>', 'Dict[str, Any]', 'same'],
      ['Dict[str, int]', 'dict[str, number]', 'same'],
      ['Dict[str, Any]', 'Mapping[str, Any]', 'unknown'],
      ['Dict[str, int]', 'Map<string, number>', 'unknown'],
      ['Dict[str, int]', 'dict[str, str]', 'different'],
      ['Dict[str, int]', 'List[str]', 'different'],
      ['Dict[str, Any]', 'str', 'different'],
      ['Dict[str, Any]', 'object', 'unknown'],
      ['Dict[str, List[int]]', 'dict[str, list[int]]', 'same'],
    ],
  ],
  [
    'literals',
    [
      ['Literal["a", "b"]', '"a" | "b"', 'same'],
      ['Literal["a", "b"]', "'b' | 'a'", 'same'],
      ['Literal["a", "b"]', 'Literal["b", "a"]', 'same'],
      ['typing.Literal["a", "b"]', "Literal['a', 'b']", 'same'],
      ["'a' | 'b'", 'Literal["a", "b"]', 'same'],
      ['Literal[1, 2]', '1 | 2', 'same'],
      ['Literal[True]', 'true', 'same'],
      ['Optional[Literal["a", "b"]]', '"a" | "b"', 'same'],
      ['Literal["a", "b"]', 'str', 'unknown'], // docs wider: not wrong
      ['str', '"a" | "b"', 'unknown'], // docs narrower: not wrong
      ['Literal[1, 2]', 'int', 'unknown'],
      ['Literal[1, 2]', 'float', 'unknown'],
      ['Literal["a", "b"]', '"a"', 'unknown'], // a lone quoted string is read as a name
      ['Literal["a", "b"]', '"a" | "b" | "c"', 'different'],
      ['Literal["a", "b"]', '"a" | "c"', 'different'],
      ['Literal["a", "b"]', 'int', 'different'],
      ['Literal["a", "b"]', 'bool', 'different'],
      ['Literal["a", "b"]', 'Mode', 'unknown'],
      ['Literal[Mode.A]', 'Literal[Mode.A]', 'same'],
      ['Literal["a\\"b", "c"]', "'a\"b' | 'c'", 'same'],
    ],
  ],
  [
    'unions',
    [
      ['Union[int, str]', 'Union[str, int]', 'same'],
      ['Union[int, str]', 'str | int', 'same'],
      ['int | str', 'string | number', 'same'],
      ['Union[int, str]', 'int', 'unknown'], // docs narrower
      ['int', 'Union[int, str]', 'different'], // docs accept str, code does not
      ['Union[int, str]', 'int | bool', 'different'],
      ['Union[int, List[int]]', 'int | list[int]', 'same'],
      ['Union[int, MyConfig]', 'int | str', 'unknown'],
      ['Union[int, Any]', 'int', 'unknown'],
      ['Union[int]', 'int', 'same'],
      ['int | str | None', 'Optional[Union[str, int]]', 'same'],
      ['| "a" | "b"', 'Literal["a", "b"]', 'same'], // TS leading pipe
    ],
  ],
  [
    'wrappers, prefixes and formatting',
    [
      ['Annotated[int, Field(gt=0)]', 'int', 'same'],
      ['Annotated[Optional[int], Field(ge=0, description="x[y]")]', 'int | None', 'same'],
      ['Annotated[int, Field(gt=0)]', 'str', 'different'],
      ['ClassVar[int]', 'int', 'same'],
      ['Final[str]', 'string', 'same'],
      ['typing.Optional[typing.List[str]]', 't.List[str]', 'same'],
      ['int', '`int`', 'same'],
      ['Optional[int]', '  `Optional[int]`  ', 'same'],
      ['int', '`str`', 'different'],
      ['Optional[int]', 'int \\| None', 'same'], // escaped table pipe
      ['Optional[int]', 'Optional[\n  int\n]', 'same'],
      ['"MyConfig"', 'MyConfig', 'same'], // forward reference
      ['List["Node"]', 'list[Node]', 'same'],
      ["Optional['int']", 'int', 'same'],
      ['pkg.models.MyConfig', 'MyConfig', 'same'],
      ['MyConfig', 'OtherConfig', 'unknown'],
      ['MyConfig', 'int', 'unknown'],
      ['Mode', 'str', 'unknown'], // a str enum
      ['Path', 'str', 'unknown'],
      ['str', 'Path', 'unknown'],
      ['pathlib.Path', 'Path', 'same'],
      ['Callable[[int], str]', 'Callable[[int], str]', 'same'],
    ],
  ],
  [
    'wildcards',
    [
      ['Any', 'int', 'unknown'],
      ['int', 'Any', 'unknown'],
      ['int', 'any', 'unknown'],
      ['str', 'unknown', 'unknown'],
      ['Dict[str, Any]', 'object', 'unknown'],
      ['object', 'str', 'unknown'],
      ['Any', 'Any', 'unknown'],
    ],
  ],
  [
    'prose and non-types',
    [
      [undefined, 'int', 'unknown'],
      ['int', '', 'unknown'],
      ['int', '   ', 'unknown'],
      ['int', '-', 'unknown'],
      ['int', '—', 'unknown'],
      ['int', 'path to a file', 'unknown'],
      ['str', 'see below', 'unknown'],
      ['int', 'int or str', 'unknown'],
      ['int', 'str, int', 'unknown'],
      ['int', '`int`, `str`', 'unknown'],
      ['str', 'str list', 'unknown'],
      ['int', 'Optional', 'unknown'],
      ['int', 'Optional[int, str]', 'unknown'],
      ['int', 'List[int', 'unknown'],
      ['int', 'List[int]]', 'unknown'],
      ['int', "the user's name", 'unknown'],
      ['int', '{ a: string }', 'unknown'],
      ['int', '(x: number) => string', 'unknown'],
      ['str', 'keyof Config', 'unknown'],
      ['int', 'A & B', 'unknown'],
      ['int', 'int.', 'unknown'],
      ['conint(ge=0)', 'int', 'unknown'],
      ['', 'int', 'unknown'],
      ['int', 'N/A', 'unknown'],
      ['int', 'number?', 'unknown'],
    ],
  ],
];

describe('compareType', () => {
  for (const [group, rows] of table) {
    describe(group, () => {
      it.each(rows)('code %j vs documented %j → %s', (code, documented, expected) => {
        expect(compareType(code, documented)).toBe(expected);
      });
    });
  }
});

describe('normaliseType', () => {
  it.each([
    ['int | None', 'int | None'],
    ['Optional[int]', 'int | None'],
    ['None | int', 'int | None'],
    ['typing.List[str]', 'list[str]'],
    ['string[]', 'list[str]'],
    ['Array<string>', 'list[str]'],
    ['Record<string, unknown>', 'dict[str, Any]'],
    ['Literal["b", "a"]', 'Literal["a"] | Literal["b"]'],
    ['boolean', 'bool'],
    ['Tuple[int, ...]', 'tuple[int, ...]'],
    ['Annotated[int, Field(gt=0)]', 'int'],
    ['`Dict`', 'dict'],
  ])('%j → %j', (text, expected) => {
    const node = normaliseType(text);
    expect(node).toBeDefined();
    expect(formatType(node!)).toBe(expected);
  });

  it('returns undefined for prose', () => {
    for (const text of ['', '-', 'path to a file', 'see below', 'int or str', '`a` or `b`', '"unterminated']) {
      expect(normaliseType(text), text).toBeUndefined();
    }
  });
});

describe('hostile input returns', () => {
  const inputs: Array<[string, string]> = [
    ['10k opening brackets', '['.repeat(10_000)],
    ['deep but short nesting', `${'List['.repeat(300)}int${']'.repeat(300)}`],
    ['deep parentheses', `${'('.repeat(1000)}int${')'.repeat(1000)}`],
    ['nested TS tuples', `${'['.repeat(900)}${']'.repeat(900)}`],
    ['10k characters of names', 'a'.repeat(10_000)],
    ['long union', Array.from({ length: 900 }, (_, k) => `T${k}`).join('|')],
    ['10k pipes', '|'.repeat(10_000)],
    ['10k quotes', '"'.repeat(10_000)],
    ['10k backslashes', '\\'.repeat(10_000)],
    ['Annotated without end', `Annotated[int, ${'('.repeat(500)}`],
    ['alternating generics', `${'Array<'.repeat(200)}string${'>'.repeat(200)}`],
    ['10k mixed', 'List[Dict[str, '.repeat(700)],
  ];
  it.each(inputs)('%s', (_, text) => {
    expect(['same', 'different', 'unknown']).toContain(compareType(text, text));
    expect(['same', 'different', 'unknown']).toContain(compareType('int', text));
    expect(['same', 'different', 'unknown']).toContain(compareType(text, 'int'));
  });

  it('nesting within the limit still compares', () => {
    const deep = `${'List['.repeat(20)}int${']'.repeat(20)}`;
    const deepTs = `number${'[]'.repeat(20)}`;
    expect(compareType(deep, deepTs)).toBe('same');
  });

  it('nesting beyond the limit is unknown, never different', () => {
    const deep = `${'List['.repeat(200)}int${']'.repeat(200)}`;
    expect(compareType(deep, 'str')).toBe('unknown');
  });
});
