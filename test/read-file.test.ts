/** readRegularFileBytes: the one way docdrift reads a project file (src/shared/read-file.ts). */
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeText, pythonSourceCoding, pythonTextCodingError, ReadFileError, readErrorText, SourceCodingError, SourceNotUtf8Error, readRegularFileBytes, readSignedFileBytes, TextEncodingError } from '../src/shared/read-file.js';
import { createReader } from '../src/engine/lint.js';
import type { InputDiagnostic } from '../src/model/types.js';
import { lintTwin, removeTempDirs, tempProject } from './helpers.js';

describe('readRegularFileBytes', () => {
  afterAll(removeTempDirs);

  it('reads a file of several MiB whole (the per-file cache), an empty file and a small one byte for byte', () => {
    const root = tempProject({ 'empty.md': '', 'small.md': '# é\n' });
    const big = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let i = 0; i < big.length; i++) big[i] = (i * 31 + (i >> 11)) & 0xff;
    writeFileSync(path.join(root, 'big.bin'), big);
    expect(readRegularFileBytes(path.join(root, 'big.bin')).equals(big)).toBe(true);
    expect(readRegularFileBytes(path.join(root, 'empty.md'))).toHaveLength(0);
    expect(readRegularFileBytes(path.join(root, 'small.md')).toString('utf8')).toBe('# é\n');
  });

  it('refuses a file over the limit, a directory and a FIFO (without waiting for a writer)', () => {
    const root = tempProject({ 'a.md': 'x'.repeat(100), 'dir/b.md': '' });
    expect(() => readRegularFileBytes(path.join(root, 'a.md'), { maxBytes: 99 })).toThrow(ReadFileError);
    expect(readRegularFileBytes(path.join(root, 'a.md'), { maxBytes: 100 })).toHaveLength(100);
    expect(() => readRegularFileBytes(path.join(root, 'dir'))).toThrow(/directory/);
    execFileSync('mkfifo', [path.join(root, 'pipe.md')]);
    expect(() => readRegularFileBytes(path.join(root, 'pipe.md'))).toThrow(/FIFO/);
  });

  it.runIf(existsSync('/proc/self/status'))('reads a file whose stated size is wrong (procfs says 0) to its end', () => {
    const bytes = readRegularFileBytes('/proc/self/status');
    expect(bytes.length).toBeGreaterThan(100);
    expect(bytes.toString('utf8')).toMatch(/^Name:/);
    expect(bytes.toString('utf8').split('\n')[0]).toBe(readFileSync('/proc/self/status', 'utf8').split('\n')[0]);
  });
});

describe('readSignedFileBytes', () => {
  afterAll(removeTempDirs);
  const key = Buffer.from('k'.repeat(32));
  const mac = () => createHmac('sha256', key);

  it('gives a signed body of several MiB byte for byte, and refuses a forged, truncated or oversized file', () => {
    const body = Buffer.alloc(3 * 1024 * 1024 + 5);
    for (let i = 0; i < body.length; i++) body[i] = (i * 7) & 0xff;
    const root = tempProject({});
    const write = (name: string, bytes: Buffer) => {
      writeFileSync(path.join(root, name), bytes);
      return path.join(root, name);
    };
    const signed = write('signed.bin', Buffer.concat([mac().update(body).digest(), body]));
    const read = readSignedFileBytes(signed, { maxBytes: 1 << 30, macBytes: 32, mac });
    expect('body' in read && read.body.equals(body)).toBe(true);
    expect(read.size).toBe(body.length + 32);
    const forged = Buffer.concat([mac().update(body).digest(), body]);
    forged[forged.length - 1]! ^= 1;
    expect(readSignedFileBytes(write('forged.bin', forged), { maxBytes: 1 << 30, macBytes: 32, mac })).toEqual({ refused: 'signature', size: forged.length });
    expect(readSignedFileBytes(write('short.bin', Buffer.alloc(10)), { maxBytes: 1 << 30, macBytes: 32, mac })).toEqual({ refused: 'truncated', size: 10 });
    expect(() => readSignedFileBytes(signed, { maxBytes: 1024, macBytes: 32, mac })).toThrow(expect.objectContaining({ code: 'EFBIG' }));
  });
});

describe('decodeText: a Python source decoded as its PEP 263 coding line says (#33 s38 sweep D3)', () => {
  const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');

  it('reads line 1 or line 2 (after a shebang or comment), latin-1 exactly and other codecs TextDecoder knows', () => {
    expect(decodeText(latin1('# -*- coding: latin-1 -*-\nx = "caf\u00e9"\n'), 'tool/cli.py')).toContain('"caf\u00e9"');
    expect(decodeText(latin1('#!/usr/bin/env python\n# vim: set fileencoding=iso-8859-1 :\nx = "\u00e9\u0085"\n'), 'a.py')).toContain('"\u00e9\u0085"');
    expect(pythonSourceCoding(Buffer.from('# coding=cp1252\n'))).toEqual({ name: 'cp1252', line: 1 });
    // cp1252 as CPython decodes it: Node's TextDecoder('windows-1252') gives U+0093 for 0x93 (nodejs/node#56542).
    expect(decodeText(Buffer.from([...Buffer.from('# coding=cp1252\nx = "'), 0x93, 0x80, 0x94, ...Buffer.from('"\n')]), 'a.py')).toContain('"\u201c\u20ac\u201d"');
    expect(decodeText(Buffer.from([...Buffer.from('# coding: iso8859_15\nx = "'), 0xa4, ...Buffer.from('"\n')]), 'a.pyi')).toContain('"\u20ac"');
    expect(pythonSourceCoding(Buffer.from('# -*- coding: utf-8 -*-\n'))?.name).toBe('utf-8');
    expect(pythonSourceCoding(Buffer.from('x = 1\n'))).toBeUndefined();
  });

  it('line 1 may end with LF, CRLF or a lone CR: the coding line on line 2 applies after each, as CPython reads it (s41 sweep D3)', () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      expect(decodeText(latin1(`#!/usr/bin/env python${eol}# -*- coding: latin-1 -*-${eol}x = "\u00f1"${eol}`), 'tool/cli.py')).toContain('"\u00f1"');
      // A code line 1 still hides a coding line 2, whatever ends it.
      // Read as UTF-8 then, where 0xF1 on line 3 is invalid: refused as CPython refuses it.
      expect(() => decodeText(latin1(`import os${eol}# coding: latin-1${eol}x = "\u00f1"${eol}`), 'a.py')).toThrow(/^line 3 is not valid UTF-8/);
    }
    expect(pythonSourceCoding(latin1('# comment\r# coding: latin-1\n'))?.name).toBe('latin-1');
    expect(pythonSourceCoding(latin1('\r\n# coding: latin-1\r'))?.name).toBe('latin-1');
  });

  it('reads the whole coding line however long, as CPython does (s43 sweep F3: only its first 400 characters were)', () => {
    for (const pad of [0, 383, 450, 100_000]) {
      expect(decodeText(latin1(`# ${'x'.repeat(pad)} -*- coding: latin-1 -*-\nx = "\u00f1"\n`), 'tool/cli.py'), `pad ${pad}`).toContain('"\u00f1"');
      expect(pythonSourceCoding(latin1(`#!/usr/bin/env python ${'y'.repeat(pad)}\n# vim: fileencoding=iso-8859-15\n`))?.name, `pad ${pad}`).toBe('iso-8859-15');
    }
    // The first `coding` followed by `:` or `=` names the codec; one without a name after it does not stop the search.
    expect(pythonSourceCoding(latin1('# no coding here; coding: latin-1\n'))?.name).toBe('latin-1');
    expect(pythonSourceCoding(latin1('# coding: \t\n# coding=latin-1\n'))?.name).toBe('latin-1');
    expect(pythonSourceCoding(latin1('#coding:latin-1\n'))?.name).toBe('latin-1');
    expect(pythonSourceCoding(latin1('  \f# coding=latin-1\n'))?.name).toBe('latin-1');
    // Not a comment: no declaration, and line 2 is not read.
    expect(pythonSourceCoding(latin1('x = 1  # coding: latin-1\n# coding: latin-1\n'))?.name).toBeUndefined();
    expect(pythonSourceCoding(latin1(`x = "${'a'.repeat(1000)}" # coding: latin-1\n`))?.name).toBeUndefined();
  });

  it('refuses a Python source with a UTF-16 or UTF-32 byte-order mark, as CPython does (s45 sweep); a page with one is still decoded', () => {
    const source = 'from pydantic import BaseModel\n\n\nclass C(BaseModel):\n    seed: int = 0\n';
    const bom = (bytes: number[], body: Buffer): Buffer => Buffer.concat([Buffer.from(bytes), body]);
    const utf16be = (text: string): Buffer => Buffer.from(text, 'utf16le').swap16();
    const utf32le = (text: string): Buffer => Buffer.concat([...text].map((c) => Buffer.from([c.charCodeAt(0), 0, 0, 0])));
    const cases: Array<[Buffer, string, string]> = [
      [bom([0xff, 0xfe], Buffer.from(source, 'utf16le')), 'UTF-16', 'ff'],
      [bom([0xfe, 0xff], utf16be(source)), 'UTF-16', 'fe'],
      [bom([0xff, 0xfe, 0, 0], utf32le(source)), 'UTF-32', 'ff'],
      [bom([0xff, 0xfe], Buffer.from(`# -*- coding: utf-16 -*-\n${source}`, 'utf16le')), 'UTF-16', 'ff'],
    ];
    for (const [bytes, encoding, first] of cases) {
      let thrown: unknown;
      try {
        decodeText(bytes, 'tool/cli.py');
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(SourceCodingError);
      expect((thrown as SourceCodingError).line).toBe(1);
      expect((thrown as Error).message).toBe(`it starts with a ${encoding} byte-order mark, which CPython does not read as source ("SyntaxError: Non-UTF-8 code starting with '\\x${first}'"); the file is not read. Save it as UTF-8`);
    }
    expect(decodeText(bom([0xff, 0xfe], Buffer.from('# Reference\n', 'utf16le')), 'docs/ref.md')).toBe('# Reference\n');
    expect(decodeText(bom([0xef, 0xbb, 0xbf], Buffer.from(source)), 'tool/cli.py')).toContain('class C(BaseModel)');
  });

  it('keeps UTF-8 when the declaration is not where CPython reads it, or the file is not Python', () => {
    const bytes = latin1('import os\n# coding: latin-1\nx = "caf\u00e9"\n');
    // Read as UTF-8, as CPython reads it, where 0xE9 on line 3 stops it (refused, below).
    expect(() => decodeText(bytes, 'a.py')).toThrow(SourceNotUtf8Error);
    expect(decodeText(latin1('import os\n# coding: latin-1\nx = "caf\u00e9"\n'.replace('\u00e9', 'e')), 'a.py')).toContain('"cafe"');
    expect(decodeText(latin1('# coding: latin-1\nx = "\u00e9"\n'), 'docs/a.md')).toContain('\uFFFD');
    expect(decodeText(latin1('# coding: latin-1\nx = "\u00e9"\n'))).toContain('\uFFFD');
  });

  it('refuses a Python source that is read as UTF-8 but is not, naming the line and byte CPython names (#33 s45 leftover)', () => {
    const refusal = (bytes: Buffer): SourceCodingError => {
      try {
        decodeText(bytes, 'tool/cli.py');
      } catch (error) {
        if (error instanceof SourceNotUtf8Error) return error;
        throw error;
      }
      throw new Error('not refused');
    };
    const source = (line3: Buffer): Buffer => Buffer.concat([Buffer.from('from pydantic import BaseModel\n\n# '), line3, Buffer.from('\nclass C(BaseModel):\n    seed: int = 0\n')]);
    // A Latin-1 é, a cut sequence, an overlong slash, an encoded surrogate, a code point above U+10FFFF, a lone continuation byte.
    for (const [bad, byte] of [[[0xe9], 'e9'], [[0xe2, 0x82], 'e2'], [[0xc0, 0xaf], 'c0'], [[0xed, 0xa0, 0x80], 'ed'], [[0xf4, 0x90, 0x80, 0x80], 'f4'], [[0x41, 0x80], '80']] as const) {
      const error = refusal(source(Buffer.from([0x61, ...bad])));
      expect(error.line).toBe(3);
      expect(error.message).toBe(`line 3 is not valid UTF-8 and the file declares no encoding, so CPython does not read it ("SyntaxError: Non-UTF-8 code starting with '\\x${byte}' … but no encoding declared"); the file is not read. Save it as UTF-8 or declare its encoding in a coding comment (PEP 263)`);
    }
    // Declared UTF-8: the same refusal, worded as CPython's codec error; a UTF-8 BOM says UTF-8 too.
    const declared = refusal(Buffer.concat([Buffer.from('# -*- coding: utf-8 -*-\nx = 1\ny = "'), Buffer.from([0xff]), Buffer.from('"\n')]));
    expect(declared.line).toBe(3);
    expect(declared.message).toContain("codec can't decode byte 0xff");
    expect(refusal(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('x = 1\r\ry = "'), Buffer.from([0xff]), Buffer.from('"\n')])).line).toBe(3);
    // Valid UTF-8 of every length, a UTF-8 BOM, and a page with invalid bytes: read.
    expect(decodeText(Buffer.from('# caf\u00e9 \u20ac \u{1F600}\nx = 1\n'), 'tool/cli.py')).toContain('\u{1F600}');
    expect(decodeText(Buffer.from([0x23, 0x20, 0xe9, 0x0a]), 'docs/a.md')).toBe('# \uFFFD\n');
  });

  it('refuses a UTF-8 byte-order mark with a coding comment declaring another codec, as CPython does (s46 sweep H10); with a UTF-8 declaration it is read', () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    let thrown: unknown;
    try {
      decodeText(Buffer.concat([bom, latin1('# -*- coding: latin-1 -*-\nx = "caf\u00e9"\n')]), 'tool/cli.py');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SourceCodingError);
    expect((thrown as SourceCodingError).line).toBe(1);
    expect((thrown as Error).message).toBe('it starts with a UTF-8 byte-order mark but its coding comment (line 1) declares `latin-1`, which CPython refuses ("SyntaxError: encoding problem: latin-1 with BOM"); the file is not read. Remove the byte-order mark or the coding comment');
    expect(pythonSourceCoding(Buffer.concat([bom, Buffer.from('#!/usr/bin/env python\n# coding: cp1252\n')]))).toEqual({ name: 'cp1252', line: 2 });
    expect(decodeText(Buffer.concat([bom, Buffer.from('# coding: utf-8\nx = "caf\u00e9"\n')]), 'tool/cli.py')).toBe('\uFEFF# coding: utf-8\nx = "caf\u00e9"\n');
    // A page is no Python source.
    expect(decodeText(Buffer.concat([bom, latin1('# coding: latin-1\n')]), 'docs/a.md')).toBe('\uFEFF# coding: latin-1\n');
  });

  it('#33 F9: refuses a codec docdrift cannot decode as CPython does, or no codec, naming the coding line and the codec', () => {
    const refusal = (bytes: Buffer): SourceCodingError | undefined => {
      try {
        decodeText(bytes, 'tool/cli.py');
      } catch (error) {
        if (error instanceof SourceCodingError) return error;
        throw error;
      }
      return undefined;
    };
    // In utf-7 `+AGE-` is `a`; in unicode_escape `\u0061` is decoded before tokenizing; utf-16
    // reads ASCII bytes as other characters; cp500 is EBCDIC; rot13, punycode and the byte codecs
    // CPython refuses as source codecs. None of them may be read as UTF-8.
    for (const codec of ['utf-7', 'UTF_7', 'u7', 'unicode_escape', 'raw-unicode-escape', 'rot13', 'idna', 'punycode', 'utf-16', 'utf-32', 'utf_16_le', 'cp500', 'base64', 'big5hkscs', 'mbcs']) {
      const error = refusal(Buffer.from(`# -*- coding: ${codec} -*-\nx = "+AGE-"\n`));
      expect(error, codec).toMatchObject({ code: 'ECODING', line: 1, codec, known: true });
      expect(error!.message).toBe(`its coding comment (line 1) declares \`${codec}\`, a codec docdrift cannot decode as Python does; the file is not read`);
    }
    expect(refusal(Buffer.from('#!/usr/bin/env python\n# vim: set fileencoding=unicode_escape :\nx = "\\u0061"\n'))).toMatchObject({ line: 2, codec: 'unicode_escape' });
    // No codec of CPython's: names CPython's lookup does not find (WHATWG labels and near misses included).
    for (const codec of ['no-such-codec', 'utf8mb4', 'latin-9', 'cp-1252', 'x-user-defined']) {
      const error = refusal(Buffer.from(`# coding: ${codec}\nx = 1\n`));
      expect(error, codec).toMatchObject({ code: 'ECODING', line: 1, codec, known: false });
      expect(error!.message).toContain('which is no codec of CPython\'s standard library (CPython stops with "SyntaxError: unknown encoding" unless one of that name is installed)');
    }
    // The forms CPython's tokenizer takes itself, and aliases its registry knows.
    expect(decodeText(latin1('# coding: utf-8-unix\nx = 1\n'), 'a.py')).toBe('# coding: utf-8-unix\nx = 1\n');
    expect(decodeText(latin1('# coding: latin-1-unix\nx = "\u00e9"\n'), 'a.py')).toContain('"\u00e9"');
    expect(decodeText(latin1('# coding: windows-1252\nx = "\u00e9"\n'), 'a.py')).toContain('"\u00e9"');
    expect(decodeText(latin1('# coding: 646\nx = 1\n'), 'a.py')).toBe('# coding: 646\nx = 1\n');
    // Other files are never refused.
    expect(decodeText(Buffer.from('# coding: utf-7\n'), 'docs/a.md')).toBe('# coding: utf-7\n');
  });

  it('an open buffer (overlay) declaring such a codec is refused by the run\'s reader as the file on disk is', () => {
    const diagnostics: InputDiagnostic[] = [];
    const overlay = new Map([
      ['tool/cli.py', '#!/usr/bin/env python\r\n# -*- coding: utf-7 -*-\r\nx = "+AGE-"\r\n'],
      ['tool/ok.py', '# -*- coding: latin-1 -*-\nx = "\u00e9"\n'],
      ['docs/a.md', '# coding: utf-7\n'],
    ]);
    const read = createReader('/nonexistent', overlay, diagnostics);
    expect(read('tool/cli.py')).toBeUndefined();
    expect(read('tool/ok.py')).toBe(overlay.get('tool/ok.py'));
    expect(read('docs/a.md')).toBe('# coding: utf-7\n');
    expect(diagnostics).toEqual([{
      ruleId: 'parse-error',
      severity: 'error',
      message: 'Cannot read tool/cli.py: its coding comment (line 2) declares `utf-7`, a codec docdrift cannot decode as Python does; the file is not read',
      location: { file: 'tool/cli.py', line: 2, column: 1 },
    }]);
    expect(pythonTextCodingError('a.py', `# ${'x'.repeat(100_000)}\n# coding: rot13\n`)).toMatchObject({ line: 2, codec: 'rot13' });
    expect(pythonTextCodingError('a.py', 'import os\n# coding: rot13\n')).toBeUndefined();
    // A NUL character in a buffer: refused as on disk (s47 sweep J4).
    expect(pythonTextCodingError('a.py', 'import os\r\nx = 1\n# \0\n')).toMatchObject({ line: 3, message: 'line 3 holds a NUL byte, which CPython refuses ("SyntaxError: source code cannot contain null bytes"); the file is not read' });
    expect(pythonTextCodingError('docs/a.md', '# \0\n')).toBeUndefined();
  });

  it('decodes single-byte codecs as CPython does where the WHATWG decoder differs', () => {
    const source = (codec: string, ...bytes: number[]): Buffer => Buffer.from([...Buffer.from(`# coding: ${codec}\nx = "`), ...bytes, ...Buffer.from('"\n')]);
    // iso-8859-9 is windows-1254 to TextDecoder: 0x80 is U+0080 in CPython, not the euro sign.
    expect(decodeText(source('iso-8859-9', 0x80, 0xd0), 'a.py')).toContain('"\u0080\u011e"');
    expect(decodeText(source('cp1254', 0x80, 0xd0), 'a.py')).toContain('"\u20ac\u011e"');
    expect(decodeText(source('koi8-r', 0xc1), 'a.py')).toContain('"\u0430"');
    // cp949 that is EUC-KR (KS X 1001 pairs) is read; its Unified Hangul Code extension, which Node's decoder reads as C1 controls, is refused.
    expect(decodeText(source('cp949', 0xb0, 0xa1), 'a.py')).toContain('"\uac00"');
    expect(() => decodeText(source('cp949', 0x81, 0x41), 'a.py')).toThrow(SourceCodingError);
  });

  it('s47 sweep J3: refuses, as CPython does, a UTF-8 BOM with a coding name its tokenizer does not take for UTF-8 itself (`utf8`, `UTF8`, `u8`, `cp65001`, `utf`)', () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    // CPython 3.11: compile(b'\xef\xbb\xbf# -*- coding: UTF8 -*-\nx=1\n', …) raises "encoding problem: UTF8 with BOM".
    for (const name of ['utf8', 'UTF8', 'u8', 'cp65001', 'utf', 'utf8-sig', 'UTF8-unix']) {
      expect(() => decodeText(Buffer.concat([bom, Buffer.from(`# -*- coding: ${name} -*-\nx = 1\n`)]), 'tool/cli.py'), name).toThrow(`declares \`${name}\`, which CPython refuses ("SyntaxError: encoding problem: ${name} with BOM")`);
    }
    // The names CPython normalises to `utf-8` (first 12 characters lower-cased, `_` as `-`: `utf-8` or `utf-8-…`) are read.
    for (const name of ['utf-8', 'UTF-8', 'utf_8', 'UTF_8', 'utf-8-sig', 'utf-8-unix', 'utf-8-foo']) {
      expect(decodeText(Buffer.concat([bom, Buffer.from(`# coding: ${name}\nx = "caf\u00e9"\n`)]), 'tool/cli.py'), name).toBe(`\uFEFF# coding: ${name}\nx = "caf\u00e9"\n`);
    }
    // Without a BOM, `utf8` and its aliases are UTF-8 to CPython.
    expect(decodeText(Buffer.from('# coding: u8\nx = "caf\u00e9"\n'), 'tool/cli.py')).toBe('# coding: u8\nx = "caf\u00e9"\n');
  });

  it('s47 sweep J3: refuses a byte the declared single-byte codec leaves undefined (`ascii` over 0x7F, cp1252 0x81) at its line, as CPython does ("codec can\'t decode byte")', () => {
    const refusal = (bytes: Buffer): SourceCodingError => {
      try {
        decodeText(bytes, 'tool/cli.py');
      } catch (error) {
        if (error instanceof SourceCodingError) return error;
        throw error;
      }
      throw new Error('read');
    };
    const ascii = refusal(Buffer.concat([Buffer.from('# coding: ascii\nimport argparse\n# caf'), Buffer.from([0xe9]), Buffer.from('\nx = 1\n')]));
    expect(ascii).toMatchObject({ code: 'ECODING', line: 3, codec: 'ascii' });
    expect(ascii.message).toBe('line 3 holds byte 0xe9, which `ascii`, the codec its coding comment (line 1) declares, cannot decode, so CPython refuses the file ("SyntaxError: … codec can\'t decode byte 0xe9"); the file is not read. Declare the file\'s real encoding or save it as UTF-8');
    // UTF-8 bytes in an ASCII file: refused at the first of them.
    expect(refusal(Buffer.from('#!/usr/bin/env python\n# -*- coding: us-ascii -*-\nx = 1\ny = "\u00e9"\n'))).toMatchObject({ line: 4, codec: 'us-ascii' });
    expect(refusal(Buffer.concat([Buffer.from('# coding: cp1252\nx = "'), Buffer.from([0x81]), Buffer.from('"\n')]))).toMatchObject({ line: 2, codec: 'cp1252' });
    // Bytes the codec defines are read.
    expect(decodeText(Buffer.concat([Buffer.from('# coding: cp1252\nx = "'), Buffer.from([0x80, 0x93]), Buffer.from('"\n')]), 'tool/cli.py')).toContain('"\u20ac\u201c"');
    expect(decodeText(Buffer.from('# coding: ascii\nx = 1\n'), 'tool/cli.py')).toBe('# coding: ascii\nx = 1\n');
  });

  it('s47 sweep J4: a page saved as UTF-16 without a byte-order mark, or as UTF-32 with one, is decoded as such; UTF-8 with a stray NUL stays UTF-8', () => {
    const page = '# Guide\n\n```bash\ntool +sed=1 --na\u00efve \u20ac \u{1F600}\n```\n';
    const be = (text: string): Buffer => Buffer.from(text, 'utf16le').swap16();
    expect(decodeText(Buffer.from(page, 'utf16le'), 'README.md')).toBe(page);
    expect(decodeText(be(page), 'docs/guide.md')).toBe(page);
    expect(decodeText(Buffer.from(page, 'utf16le'))).toBe(page);
    const utf32 = (text: string, le: boolean): Buffer => {
      const cps = [0xfeff, ...Array.from(text, (c) => c.codePointAt(0)!)];
      const out = Buffer.alloc(cps.length * 4);
      cps.forEach((cp, i) => (le ? out.writeUInt32LE(cp, i * 4) : out.writeUInt32BE(cp, i * 4)));
      return out;
    };
    expect(decodeText(utf32(page, true), 'docs/guide.md')).toBe(page);
    expect(decodeText(utf32(page, false), 'docs/guide.mdx')).toBe(page);
    // UTF-16 with a BOM, as before; UTF-8 with a NUL at the start or the end, or binary bytes: UTF-8.
    expect(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(page, 'utf16le')]), 'README.md')).toBe(page);
    expect(decodeText(Buffer.from(`\0${page}\0`), 'README.md')).toBe(`\0${page}\0`);
    const binary = Buffer.from(Array.from({ length: 600 }, (_, i) => (i % 3 === 0 ? 0 : (i * 37) & 0xff)));
    expect(decodeText(binary, 'a.md')).toBe(binary.toString('utf8'));
  });

  it('s47 sweep J4: a Python source holding NUL bytes (UTF-16 without a byte-order mark) is refused as CPython refuses it; a TypeScript, JSON or TOML file that looks like UTF-16 or starts with a UTF-32 BOM is not read', () => {
    const source = 'import argparse\np = argparse.ArgumentParser()\np.add_argument("--seed")\n';
    expect(() => decodeText(Buffer.from(source, 'utf16le'), 'tool/cli.py')).toThrow('it looks like UTF-16 (little-endian) text without a byte-order mark, whose NUL bytes CPython refuses ("SyntaxError: source code cannot contain null bytes"); the file is not read. Save it as UTF-8');
    expect(() => decodeText(Buffer.from(source, 'utf16le').swap16(), 'tool/cli.pyi')).toThrow('UTF-16 (big-endian)');
    let nul: unknown;
    try {
      decodeText(Buffer.from(`${source}x = 1  # \0\n`), 'tool/cli.py');
    } catch (error) {
      nul = error;
    }
    expect(nul).toBeInstanceOf(SourceCodingError);
    expect(nul).toMatchObject({ line: 4, message: 'line 4 holds a NUL byte, which CPython refuses ("SyntaxError: source code cannot contain null bytes"); the file is not read' });
    for (const file of ['src/cli.ts', 'bin/cli.mjs', 'package.json', 'pyproject.toml', 'mkdocs.yml']) {
      expect(() => decodeText(Buffer.from('{"name": "tool", "bin": "cli.js"}\n', 'utf16le'), file), file).toThrow(ReadFileError);
      expect(() => decodeText(Buffer.from([0xff, 0xfe, 0, 0, 0x7b, 0, 0, 0, 0x7d, 0, 0, 0]), file), file).toThrow('it starts with a UTF-32 (little-endian) byte-order mark, which the tools that read it');
    }
    expect(readErrorText(new TextEncodingError('x'))).toBe('x, which the tools that read it (Node.js, the TypeScript compiler, TOML, YAML and JSON readers) do not read as such; the file is not read. Save it as UTF-8');
  });

  it('a latin-1 default documented right gives no finding (it was a default mismatch against "caf\uFFFD", and --fix wrote U+FFFD into the page)', async () => {
    const root = tempProject({
      'pyproject.toml': '[project]\nname = "tool"\nversion = "0.1.0"\n\n[project.scripts]\ntool = "tool.cli:main"\n',
      'tool/__init__.py': '',
      'README.md': '# tool\n\nSee [the reference](docs/reference.md).\n',
      'docs/reference.md': '# Reference\n\n### `tool`\n\n| Parameter | Type | Default | Description |\n| --- | --- | --- | --- |\n| `seed` | int | `0` | Random seed. |\n| `name` | str | `"caf\u00e9"` | Name of the run. |\n',
    });
    writeFileSync(
      path.join(root, 'tool/cli.py'),
      latin1('# -*- coding: latin-1 -*-\nfrom pydantic import BaseModel, Field\n\n\nclass ToolConfig(BaseModel):\n    seed: int = Field(default=0, description="Random seed.")\n    name: str = Field(default="caf\u00e9", description="Name of the run.")\n\n\ndef main(cfg: dict) -> None:\n    ToolConfig.model_validate(cfg)\n'),
    );
    const { messages } = await lintTwin(root);
    expect(messages.filter((m) => m.ruleId !== 'example-param-unexplained')).toEqual([]);
  });
});

describe('Python line ends (s39 sweep D1)', () => {
  it('reads a lone CR as a line end, as CPython does, keeping offsets', () => {
    const text = decodeText(Buffer.from('# helper module\rimport click\r\nx = 1\n', 'utf8'), 'tool/cli.py');
    expect(text).toBe('# helper module\nimport click\r\nx = 1\n');
    expect(text.length).toBe('# helper module\rimport click\r\nx = 1\n'.length);
    // Other files keep their bytes as they are.
    expect(decodeText(Buffer.from('a\rb', 'utf8'), 'docs/a.md')).toBe('a\rb');
  });
});
