/// <reference path="./unicode-name.d.ts" />
import type { Node } from 'web-tree-sitter';
import type { InputDiagnostic } from '../../model/types.js';
/**
 * Python's `\N{name}` string escape (Python language reference, "String and Bytes literals",
 * escape sequences): the Unicode character-name table it needs, which Node lacks, loaded from the
 * `unicode-name` package only when some source text holds a `\N{`.
 */

/** The functions of the `unicode-name` package (its public API) that the table is built from. */
interface UnicodeNamePackage {
  /** The Unicode name of a code point (`LATIN SMALL LETTER A`), `undefined` for one without a name. */
  unicodeBaseName(char: number): string | undefined;
  /** The name aliases of a code point (NameAliases.txt), by type, `undefined` for one without any. */
  unicodeAliases(char: number): Record<string, string[] | undefined> | undefined;
}

/** Upper-case name or alias → code point; `undefined` until {@link loadUnicodeNames} has finished. */
let table: Map<string, number> | undefined;
let loading: Promise<void> | undefined;
/** `unicodeBaseName`, kept for the algorithmic CJK names (checked against it, not tabled). */
let baseName: ((cp: number) => string | undefined) | undefined;

/**
 * The code point ranges read into the table: planes 0 and 1 and the named parts of planes 2 and
 * 14, without the blocks whose names CPython computes (CJK unified ideographs, Hangul syllables;
 * see {@link pythonCharacterByName}) and without the Tangut ideographs, which are named by a
 * range CPython does not name (`\N{TANGUT IDEOGRAPH-17000}` is refused). Every other character
 * with a name lies in these ranges (planes 3 to 13 hold CJK ideographs only, 15 and 16 private use).
 */
const SPANS: ReadonlyArray<readonly [number, number]> = [
  [0x0000, 0x33ff], [0x4dc0, 0x4dff], [0xa000, 0xabff], [0xd7a4, 0xd7ff], [0xe000, 0x16fff],
  [0x18800, 0x1ffff], [0x2f800, 0x2fa1f], [0xe0000, 0xe0fff],
];

/**
 * Names that `unicode-name` derives from a range (`<prefix><hex>`) but CPython's table lacks
 * (UnicodeData.txt gives them as a `First`/`Last` range): a `\N{}` naming one is left unknown.
 */
const RANGE_NAMED = /^(?:CJK UNIFIED IDEOGRAPH-|TANGUT IDEOGRAPH-|EGYPTIAN HIEROGLYPH-)/;

/** True when `text` may hold a `\N{name}` escape, so that {@link loadUnicodeNames} is worth awaiting. */
export function mayHoldNamedEscape(text: string): boolean {
  return text.includes('\\N{');
}

/**
 * Loads the character-name table once per thread (~0.2 s of CPU, ~15 MB; only runs whose Python
 * sources hold a `\N{` pay it). Never rejects: when the package cannot be loaded, the table stays
 * empty and every `\N{}` escape is a value docdrift does not know.
 */
export function loadUnicodeNames(): Promise<void> {
  loading ??= (async () => {
    const names = new Map<string, number>();
    try {
      const pkg = (await import('unicode-name')) as unknown as UnicodeNamePackage;
      for (const [first, last] of SPANS) {
        for (let cp = first; cp <= last; cp++) {
          const name = pkg.unicodeBaseName(cp);
          if (name !== undefined && !RANGE_NAMED.test(name) && !names.has(name)) names.set(name, cp);
          const aliases = pkg.unicodeAliases(cp);
          if (aliases) for (const list of Object.values(aliases)) for (const alias of list ?? []) if (!names.has(alias)) names.set(alias, cp);
        }
      }
      baseName = (cp) => pkg.unicodeBaseName(cp);
    } catch {
      names.clear(); // no table: every `\N{}` stays unknown
    }
    table = names;
  })();
  return loading;
}

const HANGUL_L = ['G', 'GG', 'N', 'D', 'DD', 'R', 'M', 'B', 'BB', 'S', 'SS', '', 'J', 'JJ', 'C', 'K', 'T', 'P', 'H'];
const HANGUL_V = ['A', 'AE', 'YA', 'YAE', 'EO', 'E', 'YEO', 'YE', 'O', 'WA', 'WAE', 'OE', 'YO', 'U', 'WEO', 'WE', 'WI', 'YU', 'EU', 'YI', 'I'];
const HANGUL_T = ['', 'G', 'GG', 'GS', 'N', 'NJ', 'NH', 'D', 'L', 'LG', 'LM', 'LB', 'LS', 'LT', 'LP', 'LH', 'M', 'B', 'BS', 'S', 'SS', 'NG', 'J', 'C', 'K', 'T', 'P', 'H'];

/** Longest entry of `list` that `text` starts with at `at`: its index and length, as CPython's `find_syllable`. */
function longestJamo(text: string, at: number, list: readonly string[]): [index: number, length: number] {
  let best: [number, number] = [-1, -1];
  list.forEach((jamo, i) => {
    if (jamo.length > best[1] && text.startsWith(jamo, at)) best = [i, jamo.length];
  });
  return best;
}

/**
 * The character a Python `\N{name}` escape stands for, or `undefined` when it is not known: the
 * name is not one CPython accepts (a string with it does not compile), or the table is not loaded
 * (see {@link loadUnicodeNames}: without it, nothing is known).
 *
 * Follows CPython's `_getcode` (Modules/unicodedata.c), which the tokenizer's `\N{}` uses: a
 * character's name or any of its aliases (NameAliases.txt: `\N{LF}`, `\N{NULL}`,
 * `\N{LATIN CAPITAL LETTER GHA}`), matched with ASCII letters upper-cased (`\N{latin small letter a}`
 * is `a`); named sequences are refused; `HANGUL SYLLABLE <jamo>` and `CJK UNIFIED IDEOGRAPH-<4 or 5
 * hex digits>` are computed, their prefix and digits matched case-sensitively as CPython does.
 * The table is `unicode-name`'s Unicode version, which may name characters newer than the
 * CPython a project runs on (CPython refuses those; docdrift reads them).
 */
export function pythonCharacterByName(name: string): string | undefined {
  if (!table || table.size === 0) return undefined;
  if (name.startsWith('HANGUL SYLLABLE ')) {
    let at = 16;
    const [l, ll] = longestJamo(name, at, HANGUL_L);
    at += Math.max(ll, 0);
    const [v, vl] = longestJamo(name, at, HANGUL_V);
    at += Math.max(vl, 0);
    const [t, tl] = longestJamo(name, at, HANGUL_T);
    at += Math.max(tl, 0);
    if (l < 0 || v < 0 || t < 0 || at !== name.length) return undefined;
    return String.fromCodePoint(0xac00 + (l * HANGUL_V.length + v) * HANGUL_T.length + t);
  }
  if (name.startsWith('CJK UNIFIED IDEOGRAPH-')) {
    const hex = name.slice(22);
    if (!/^[0-9A-F]{4,5}$/.test(hex)) return undefined;
    const cp = parseInt(hex, 16);
    return baseName?.(cp)?.startsWith('CJK UNIFIED IDEOGRAPH-') === true ? String.fromCodePoint(cp) : undefined;
  }
  const cp = table.get(name.replace(/[a-z]+/g, (letters) => letters.toUpperCase()));
  return cp === undefined ? undefined : String.fromCodePoint(cp);
}

/**
 * The `parse-error` of a module holding a `\N{name}` escape whose name CPython does not know
 * ({@link pythonCharacterByName}) in a str literal (not raw, not bytes; f-strings included): CPython
 * refuses the whole file ("SyntaxError: (unicode error) 'unicodeescape' codec can't decode bytes …:
 * unknown Unicode character name"), where docdrift read the rest and called the one value made at
 * run time (s47 sweep J3). At the first such escape; undefined when there is none, or when the
 * name table is not loaded (then nothing is known to be unknown). `root` is the module's tree.
 */
export function unknownNamedEscape(file: string, root: Node): InputDiagnostic | undefined {
  if (!table || table.size === 0 || !mayHoldNamedEscape(root.text)) return undefined;
  for (const escape of root.descendantsOfType('escape_sequence')) {
    if (!escape || !escape.text.startsWith('\\N{') || !escape.text.endsWith('}')) continue;
    // tree-sitter marks no escapes in raw and bytes literals; their prefix is checked all the same.
    let string: Node | null = escape.parent;
    while (string && string.type !== 'string') string = string.parent;
    const prefix = string?.firstChild?.type === 'string_start' ? string.firstChild.text : '';
    if (/[rRbB]/.test(prefix)) continue;
    const name = escape.text.slice(3, -1);
    if (pythonCharacterByName(name) !== undefined) continue;
    // Positions read here, not with bindings.ts's nodeLocation: bindings.ts imports values.ts, which imports this module.
    const location = { line: escape.startPosition.row + 1, column: escape.startPosition.column + 1 };
    return {
      ruleId: 'parse-error',
      severity: 'warn',
      message: `${file}:${location.line}:${location.column}: \`\\N{${name.length > 80 ? `${name.slice(0, 80)}…` : name}}\` names no Unicode character CPython knows, so CPython refuses the file ("SyntaxError: (unicode error) … unknown Unicode character name"); definitions in the rest of the file are read as for a syntax error`,
      location: { file, line: location.line, column: location.column },
    };
  }
  return undefined;
}
