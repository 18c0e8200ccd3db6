/**
 * Python source codecs (PEP 263): which codec a declared name means to CPython, and the codecs
 * docdrift decodes as CPython does. Everything else a source may declare is refused with a
 * diagnostic (src/shared/read-file.ts), never read as UTF-8: in `utf-7` the ASCII bytes `+AGE-`
 * are `a`, in `unicode_escape` a `\u0061` is decoded before the tokenizer sees it, in `utf-16`
 * an ASCII-looking file is other characters altogether (#33 F9).
 */

/**
 * CPython 3.11's standard codecs, one per line: the module name in `encodings/`, then its
 * aliases (`encodings/aliases.py`), all in the normal form {@link normalCodecName} gives. Made
 * with `pkgutil.iter_modules(encodings.__path__)` and `encodings.aliases.aliases`; `mbcs` and
 * `oem` exist on Windows only; `csHPRoman8`, an alias CPython never matches (its lookup
 * lowercases the name first), is left out.
 */
const PYTHON_CODECS = `
ascii 646 ansi_x3.4_1968 ansi_x3.4_1986 ansi_x3_4_1968 cp367 csascii ibm367 iso646_us iso_646.irv_1991 iso_ir_6 us us_ascii
base64_codec base64 base_64
big5 big5_tw csbig5 x_mac_trad_chinese
big5hkscs big5_hkscs hkscs
bz2_codec bz2
charmap
cp037 037 csibm037 ebcdic_cp_ca ebcdic_cp_nl ebcdic_cp_us ebcdic_cp_wt ibm037 ibm039
cp1006
cp1026 1026 csibm1026 ibm1026
cp1125 1125 cp866u ibm1125 ruscii
cp1140 1140 ibm1140
cp1250 1250 windows_1250
cp1251 1251 windows_1251
cp1252 1252 windows_1252
cp1253 1253 windows_1253
cp1254 1254 windows_1254
cp1255 1255 windows_1255
cp1256 1256 windows_1256
cp1257 1257 windows_1257
cp1258 1258 windows_1258
cp273 273 csibm273 ibm273
cp424 424 csibm424 ebcdic_cp_he ibm424
cp437 437 cspc8codepage437 ibm437
cp500 500 csibm500 ebcdic_cp_be ebcdic_cp_ch ibm500
cp720
cp737
cp775 775 cspc775baltic ibm775
cp850 850 cspc850multilingual ibm850
cp852 852 cspcp852 ibm852
cp855 855 csibm855 ibm855
cp856
cp857 857 csibm857 ibm857
cp858 858 csibm858 ibm858
cp860 860 csibm860 ibm860
cp861 861 cp_is csibm861 ibm861
cp862 862 cspc862latinhebrew ibm862
cp863 863 csibm863 ibm863
cp864 864 csibm864 ibm864
cp865 865 csibm865 ibm865
cp866 866 csibm866 ibm866
cp869 869 cp_gr csibm869 ibm869
cp874
cp875
cp932 932 ms932 ms_kanji mskanji
cp949 949 ms949 uhc
cp950 950 ms950
euc_jis_2004 euc_jis2004 eucjis2004 jisx0213
euc_jisx0213 eucjisx0213
euc_jp eucjp u_jis ujis
euc_kr euckr korean ks_c_5601 ks_c_5601_1987 ks_x_1001 ksc5601 ksx1001 x_mac_korean
gb18030 gb18030_2000
gb2312 chinese csiso58gb231280 euc_cn euccn eucgb2312_cn gb2312_1980 gb2312_80 iso_ir_58 x_mac_simp_chinese
gbk 936 cp936 ms936
hex_codec hex
hp_roman8 cp1051 ibm1051 r8 roman8
hz hz_gb hz_gb_2312 hzgb
idna
iso2022_jp csiso2022jp iso2022jp iso_2022_jp
iso2022_jp_1 iso2022jp_1 iso_2022_jp_1
iso2022_jp_2 iso2022jp_2 iso_2022_jp_2
iso2022_jp_2004 iso2022jp_2004 iso_2022_jp_2004
iso2022_jp_3 iso2022jp_3 iso_2022_jp_3
iso2022_jp_ext iso2022jp_ext iso_2022_jp_ext
iso2022_kr csiso2022kr iso2022kr iso_2022_kr
iso8859_1
iso8859_10 csisolatin6 iso_8859_10 iso_8859_10_1992 iso_ir_157 l6 latin6
iso8859_11 iso_8859_11 iso_8859_11_2001 thai
iso8859_13 iso_8859_13 l7 latin7
iso8859_14 iso_8859_14 iso_8859_14_1998 iso_celtic iso_ir_199 l8 latin8
iso8859_15 iso_8859_15 l9 latin9
iso8859_16 iso_8859_16 iso_8859_16_2001 iso_ir_226 l10 latin10
iso8859_2 csisolatin2 iso_8859_2 iso_8859_2_1987 iso_ir_101 l2 latin2
iso8859_3 csisolatin3 iso_8859_3 iso_8859_3_1988 iso_ir_109 l3 latin3
iso8859_4 csisolatin4 iso_8859_4 iso_8859_4_1988 iso_ir_110 l4 latin4
iso8859_5 csisolatincyrillic cyrillic iso_8859_5 iso_8859_5_1988 iso_ir_144
iso8859_6 arabic asmo_708 csisolatinarabic ecma_114 iso_8859_6 iso_8859_6_1987 iso_ir_127
iso8859_7 csisolatingreek ecma_118 elot_928 greek greek8 iso_8859_7 iso_8859_7_1987 iso_ir_126
iso8859_8 csisolatinhebrew hebrew iso_8859_8 iso_8859_8_1988 iso_ir_138
iso8859_9 csisolatin5 iso_8859_9 iso_8859_9_1989 iso_ir_148 l5 latin5
johab cp1361 ms1361
koi8_r cskoi8r
koi8_t
koi8_u
kz1048 kz_1048 rk1048 strk1048_2002
latin_1 8859 cp819 csisolatin1 ibm819 iso8859 iso8859_1 iso_8859_1 iso_8859_1_1987 iso_ir_100 l1 latin latin1
mac_arabic
mac_croatian
mac_cyrillic maccyrillic
mac_farsi
mac_greek macgreek
mac_iceland maciceland
mac_latin2 mac_centeuro maccentraleurope maclatin2
mac_roman macintosh macroman
mac_romanian
mac_turkish macturkish
mbcs ansi dbcs
oem
palmos
ptcp154 cp154 csptcp154 cyrillic_asian pt154
punycode
quopri_codec quopri quoted_printable quotedprintable
raw_unicode_escape
rot_13 rot13
shift_jis csshiftjis s_jis shiftjis sjis x_mac_japanese
shift_jis_2004 s_jis_2004 shiftjis2004 sjis_2004
shift_jisx0213 s_jisx0213 shiftjisx0213 sjisx0213
tis_620 iso_ir_166 tis620 tis_620_0 tis_620_2529_0 tis_620_2529_1
undefined
unicode_escape
utf_16 u16 utf16
utf_16_be unicodebigunmarked utf_16be
utf_16_le unicodelittleunmarked utf_16le
utf_32 u32 utf32
utf_32_be utf_32be
utf_32_le utf_32le
utf_7 u7 unicode_1_1_utf_7 utf7
utf_8 cp65001 u8 utf utf8 utf8_ucs2 utf8_ucs4
utf_8_sig
uu_codec uu
zlib_codec zip zlib
`;

/** Codec module by normal name, module names and aliases alike; built on first use. */
let codecByName: Map<string, string> | undefined;

/**
 * A codec name in the normal form CPython looks it up by (`codecs.lookup`, then
 * `encodings.normalize_encoding`): lower case, each run of characters other than letters, digits
 * and `.` as one `_`, none at either end (`UTF-7` → `utf_7`, `ISO-8859--15` → `iso_8859_15`).
 */
export function normalCodecName(name: string): string {
  const joined = name.toLowerCase().replace(/[^a-z0-9.]+/g, '_');
  // Trimmed by hand: `/^_+|_+$/` backtracks polynomially on a long run of `_` (test/regex-safety).
  let start = 0;
  let end = joined.length;
  while (start < end && joined.charCodeAt(start) === 95 /* _ */) start++;
  while (end > start && joined.charCodeAt(end - 1) === 95) end--;
  return joined.slice(start, end);
}

/**
 * The CPython codec (its module name in `encodings/`: `utf_8`, `latin_1`, `cp1252`, `utf_7`) a
 * PEP 263 declaration names, as CPython finds it: the tokenizer first takes `utf-8`, `utf-8-*`
 * and the `latin-1`/`iso-8859-1`/`iso-latin-1` spellings (and their `-*` forms) itself
 * (`get_normal_name` in Parser/tokenizer.c, on the first 12 characters, `_` read as `-`), then
 * the codec registry looks the name up among the standard codecs' aliases and modules
 * (`encodings.search_function`). Undefined for a name that is no standard codec: CPython stops
 * with `SyntaxError: unknown encoding` unless a codec of that name is installed.
 */
export function pythonCodecOf(declared: string): string | undefined {
  const head = declared.slice(0, 12).toLowerCase().replace(/_/g, '-');
  if (head === 'utf-8' || head.startsWith('utf-8-')) return 'utf_8';
  if (/^(?:latin-1|iso-8859-1|iso-latin-1)$|^(?:latin-1|iso-8859-1|iso-latin-1)-/.test(head)) return 'latin_1';
  if (!codecByName) {
    codecByName = new Map();
    for (const line of PYTHON_CODECS.split('\n')) {
      const [module, ...aliases] = line.split(' ');
      if (!module) continue;
      for (const alias of aliases) codecByName.set(alias, module);
    }
    // A module name is found after the aliases (`iso8859_1` is an alias of `latin_1`).
    for (const line of PYTHON_CODECS.split('\n')) {
      const module = line.split(' ')[0];
      if (module && !codecByName.has(module)) codecByName.set(module, module);
    }
  }
  const name = normalCodecName(declared);
  return codecByName.get(name) ?? codecByName.get(name.replace(/\./g, '_'));
}

/**
 * Bytes 0x80-0x9F of cp1252 as CPython decodes them (U+FFFD for the five it leaves undefined,
 * where CPython refuses the file). Not `TextDecoder('windows-1252')`: Node.js since 20.18.3 and
 * 22.13.0 decodes that label as ISO-8859-1 (nodejs/node#56542, #60888), so `“` (0x93) came out
 * as the control U+0093.
 */
const CP1252_C1 = '\u20ac\ufffd\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\ufffd\u017d\ufffd\ufffd\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\ufffd\u017e\u0178';

/**
 * The single-byte codecs docdrift decodes, by CPython codec: bytes 0x00-0x7F are ASCII (U+FFFD
 * for every byte over 0x7F when `asciiOnly`), bytes 0xA0-0xFF as the WHATWG `label` decodes them
 * (ISO-8859-1 without one), bytes 0x80-0x9F too unless `c1` says otherwise: `'latin1'`
 * (U+0080-U+009F, where CPython's table differs from the WHATWG encoding the label names:
 * `iso-8859-9` is windows-1254 there, `iso-8859-11` and `tis-620` windows-874) or the 32
 * characters. Checked byte by byte against CPython 3.11's codecs: the same character wherever
 * CPython decodes the byte.
 */
const SINGLE_BYTE: Readonly<Record<string, SingleByte>> = {
  ascii: { asciiOnly: true },
  cp1252: { c1: CP1252_C1 },
  cp1250: { label: 'windows-1250' },
  cp1251: { label: 'windows-1251' },
  cp1253: { label: 'windows-1253' },
  cp1254: { label: 'windows-1254' },
  cp1255: { label: 'windows-1255' },
  cp1256: { label: 'windows-1256' },
  cp1257: { label: 'windows-1257' },
  cp1258: { label: 'windows-1258' },
  cp874: { label: 'windows-874' },
  cp866: { label: 'ibm866' },
  koi8_r: { label: 'koi8-r' },
  koi8_u: { label: 'koi8-u' },
  mac_roman: { label: 'macintosh' },
  mac_cyrillic: { label: 'x-mac-cyrillic' },
  tis_620: { label: 'windows-874', c1: 'latin1' },
  iso8859_2: { label: 'iso-8859-2' },
  iso8859_3: { label: 'iso-8859-3' },
  iso8859_4: { label: 'iso-8859-4' },
  iso8859_5: { label: 'iso-8859-5' },
  iso8859_6: { label: 'iso-8859-6' },
  iso8859_7: { label: 'iso-8859-7' },
  iso8859_8: { label: 'iso-8859-8' },
  iso8859_9: { label: 'iso-8859-9', c1: 'latin1' },
  iso8859_10: { label: 'iso-8859-10' },
  iso8859_11: { label: 'iso-8859-11', c1: 'latin1' },
  iso8859_13: { label: 'iso-8859-13' },
  iso8859_14: { label: 'iso-8859-14' },
  iso8859_15: { label: 'iso-8859-15' },
};

/**
 * The multi-byte codecs docdrift decodes through `TextDecoder`, by CPython codec. Their WHATWG
 * decoders follow Microsoft's tables where CPython's strict codecs follow the standards' for a
 * few dozen characters (`shift_jis` 0x8160 is U+301C in CPython, U+FF5E here; `gb2312` 0xA1A4),
 * and give U+FFFD for the user-defined areas CPython maps to private use: read as before #33 F9.
 * Not here, so refused: `big5hkscs` and `cp950` (Node's `big5` lacks their extensions), the
 * JIS X 0213 and ISO-2022 variants but `iso2022_jp`.
 */
const MULTI_BYTE: Readonly<Record<string, string>> = {
  shift_jis: 'shift_jis',
  cp932: 'shift_jis',
  euc_jp: 'euc-jp',
  iso2022_jp: 'iso-2022-jp',
  gbk: 'gbk',
  gb2312: 'gbk',
  gb18030: 'gb18030',
  big5: 'big5',
  euc_kr: 'euc-kr',
  cp949: 'euc-kr',
};

/** How one {@link SINGLE_BYTE} codec decodes. */
interface SingleByte {
  label?: string;
  c1?: string;
  asciiOnly?: boolean;
}

/** Decoding tables of {@link SINGLE_BYTE} codecs, made on first use; null when this Node.js has no decoder for the label (a small-ICU build). */
const tables = new Map<string, Uint16Array | null>();

/** The table of a {@link SINGLE_BYTE} codec: the UTF-16 code unit of each byte. */
function singleByteTable(codec: string, spec: SingleByte): Uint16Array | null {
  let table = tables.get(codec);
  if (table !== undefined) return table;
  let decoder: TextDecoder | undefined;
  try {
    decoder = spec.label === undefined ? undefined : new TextDecoder(spec.label);
  } catch {
    tables.set(codec, null);
    return null;
  }
  table = new Uint16Array(256);
  for (let b = 0; b < 256; b++) {
    const c1 = b >= 0x80 && b < 0xa0 ? spec.c1 : undefined;
    if (b < 0x80) table[b] = b;
    else if (spec.asciiOnly) table[b] = 0xfffd;
    else if (c1 === 'latin1') table[b] = b;
    else if (c1 !== undefined) table[b] = c1.charCodeAt(b - 0x80);
    else table[b] = decoder ? decoder.decode(Uint8Array.of(b)).charCodeAt(0) : b;
  }
  tables.set(codec, table);
  return table;
}

/**
 * Whether every byte over 0x7F is in a KS X 1001 pair (lead and trail 0xA1-0xFE): cp949 text that
 * is EUC-KR, which Node's `euc-kr` decoder reads as CPython's cp949 does. Node's decoder is the
 * strict EUC-KR one (ICU), which reads the Unified Hangul Code extension (lead 0x81-0xC6, trail
 * 0x41-0xFE) as a C1 control and ASCII; such a file is refused.
 */
function isKsX1001(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b < 0x80) continue;
    const t = bytes[i + 1];
    if (b < 0xa1 || b > 0xfe || t === undefined || t < 0xa1 || t > 0xfe) return false;
    i++;
  }
  return true;
}

/**
 * `bytes` decoded as CPython decodes them with `codec` (a module name {@link pythonCodecOf}
 * gives), bytes CPython refuses becoming U+FFFD; undefined when docdrift cannot decode that
 * codec so (`utf_7`, `unicode_escape`, `utf_16`, EBCDIC, `rot_13`…, or a decoder this Node.js
 * lacks). UTF-8 and ISO-8859-1 are Node's own decoders.
 */
export function decodeAsPython(codec: string, bytes: Buffer): string | undefined {
  if (codec === 'utf_8' || codec === 'utf_8_sig') return bytes.toString('utf8');
  if (codec === 'latin_1' || codec === 'iso8859_1') return bytes.toString('latin1');
  const single = SINGLE_BYTE[codec];
  if (single) {
    const table = singleByteTable(codec, single);
    if (!table) return undefined;
    let out = '';
    const chunk = new Uint16Array(Math.min(bytes.length, 8192));
    for (let at = 0; at < bytes.length; at += chunk.length) {
      const n = Math.min(chunk.length, bytes.length - at);
      for (let i = 0; i < n; i++) chunk[i] = table[bytes[at + i]!]!;
      out += String.fromCharCode(...chunk.subarray(0, n));
    }
    return out;
  }
  const label = MULTI_BYTE[codec];
  if (label === undefined || (codec === 'cp949' && !isKsX1001(bytes))) return undefined;
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Whether `codec` (a module name {@link pythonCodecOf} gives) is one of the single-byte codecs
 * {@link decodeAsPython} decodes by table: there a U+FFFD in its output is a byte CPython's codec
 * refuses (`ascii` over 0x7F, cp1252's 0x81), so CPython refuses the whole file.
 */
export function isTablePythonCodec(codec: string): boolean {
  return Object.hasOwn(SINGLE_BYTE, codec);
}

/** Whether {@link decodeAsPython} decodes `codec` (for some bytes, in cp949's case). */
export function decodesAsPython(codec: string): boolean {
  return decodeAsPython(codec, Buffer.alloc(0)) !== undefined;
}
