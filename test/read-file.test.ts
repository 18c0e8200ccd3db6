/** readRegularFileBytes: the one way docdrift reads a project file (src/shared/read-file.ts). */
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeText, pythonSourceEncoding, ReadFileError, readRegularFileBytes, readSignedFileBytes } from '../src/shared/read-file.js';
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
    // (cp1252 is decoded too, but Node 20's TextDecoder reads windows-1252 as latin-1: not asserted.)
    expect(pythonSourceEncoding(Buffer.from('# coding=cp1252\n'))).toBe('cp1252');
    expect(decodeText(Buffer.from([...Buffer.from('# coding: iso8859_15\nx = "'), 0xa4, ...Buffer.from('"\n')]), 'a.pyi')).toContain('"\u20ac"');
    expect(pythonSourceEncoding(Buffer.from('# -*- coding: utf-8 -*-\n'))).toBeUndefined();
  });

  it('line 1 may end with LF, CRLF or a lone CR: the coding line on line 2 applies after each, as CPython reads it (s41 sweep D3)', () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      expect(decodeText(latin1(`#!/usr/bin/env python${eol}# -*- coding: latin-1 -*-${eol}x = "\u00f1"${eol}`), 'tool/cli.py')).toContain('"\u00f1"');
      // A code line 1 still hides a coding line 2, whatever ends it.
      expect(decodeText(latin1(`import os${eol}# coding: latin-1${eol}x = "\u00f1"${eol}`), 'a.py')).toContain('"\uFFFD"');
    }
    expect(pythonSourceEncoding(latin1('# comment\r# coding: latin-1\n'))).toBe('latin-1');
    expect(pythonSourceEncoding(latin1('\r\n# coding: latin-1\r'))).toBe('latin-1');
  });

  it('reads the whole coding line however long, as CPython does (s43 sweep F3: only its first 400 characters were)', () => {
    for (const pad of [0, 383, 450, 100_000]) {
      expect(decodeText(latin1(`# ${'x'.repeat(pad)} -*- coding: latin-1 -*-\nx = "\u00f1"\n`), 'tool/cli.py'), `pad ${pad}`).toContain('"\u00f1"');
      expect(pythonSourceEncoding(latin1(`#!/usr/bin/env python ${'y'.repeat(pad)}\n# vim: fileencoding=iso-8859-15\n`)), `pad ${pad}`).toBe('iso-8859-15');
    }
    // The first `coding` followed by `:` or `=` names the codec; one without a name after it does not stop the search.
    expect(pythonSourceEncoding(latin1('# no coding here; coding: latin-1\n'))).toBe('latin-1');
    expect(pythonSourceEncoding(latin1('# coding: \t\n# coding=latin-1\n'))).toBe('latin-1');
    expect(pythonSourceEncoding(latin1('#coding:latin-1\n'))).toBe('latin-1');
    expect(pythonSourceEncoding(latin1('  \f# coding=latin-1\n'))).toBe('latin-1');
    // Not a comment: no declaration, and line 2 is not read.
    expect(pythonSourceEncoding(latin1('x = 1  # coding: latin-1\n# coding: latin-1\n'))).toBeUndefined();
    expect(pythonSourceEncoding(latin1(`x = "${'a'.repeat(1000)}" # coding: latin-1\n`))).toBeUndefined();
  });

  it('keeps UTF-8 when the declaration is not where CPython reads it, names an unknown codec, or the file is not Python', () => {
    const bytes = latin1('import os\n# coding: latin-1\nx = "caf\u00e9"\n');
    expect(decodeText(bytes, 'a.py')).toContain('"caf\uFFFD"');
    expect(decodeText(latin1('# coding: no-such-codec\nx = "\u00e9"\n'), 'a.py')).toContain('\uFFFD');
    expect(decodeText(latin1('# coding: latin-1\nx = "\u00e9"\n'), 'docs/a.md')).toContain('\uFFFD');
    expect(decodeText(latin1('# coding: latin-1\nx = "\u00e9"\n'))).toContain('\uFFFD');
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
