/**
 * Bounded reads of files a repository controls (documents, sources, config, baseline, cache):
 * only regular files, never more than a size cap, decoded by their byte-order mark.
 *
 * A pull request controls everything committed, so a committed `.docdrift-baseline.json` that is
 * a symbolic link to `/dev/zero`, a FIFO named like a cache entry, or a multi-gigabyte file must
 * give a diagnostic, not hang the run or exhaust memory. `readFileSync` follows the link and
 * reads until end of file (never, for `/dev/zero`); opening a FIFO for reading blocks until a
 * writer appears. Here the file is opened non-blocking, checked with `fstat` on the open
 * descriptor (no race between the check and the read) and read up to the cap only.
 */
import { timingSafeEqual } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { escapesRoot } from './paths.js';
import { decodeAsPython, decodesAsPython, isTablePythonCodec, pythonCodecOf } from './python-codecs.js';

/** Default cap of {@link readRegularFile}: 64 MiB, far above any document, source or baseline docdrift reads. */
export const MAX_READ_BYTES = 64 * 1024 * 1024;

/**
 * Why a file was not read. `code` is a Node error code (`ENOENT`, `EACCES`, `EISDIR`…) or one of
 * docdrift's: `ENOTREG` (a device, FIFO or socket: not a regular file) and `EFBIG` (over the cap).
 */
export class ReadFileError extends Error {
  override name = 'ReadFileError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The `EFBIG` error of a file of `size` bytes over the cap `max` (bytes), as a read refuses it
 * before reading: its message names both ("84.6 MB, over the 64.0 MB limit"). The language server
 * gives it for an open buffer over {@link MAX_READ_BYTES} too (src/lsp/big-text.ts), so that it
 * says what a CLI run says of that file.
 */
export function tooLargeError(size: number, max: number = MAX_READ_BYTES): ReadFileError {
  return new ReadFileError('EFBIG', `${formatBytes(size)}, over the ${formatBytes(max)} limit`);
}

/** Options of {@link readRegularFile}. */
export interface ReadOptions {
  /** Largest size accepted, in bytes; default {@link MAX_READ_BYTES}. */
  maxBytes?: number;
}

/** Opens `file` for reading; a FIFO does not block (O_NONBLOCK has no effect on regular files). */
function openFile(file: string): number {
  try {
    return openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
    throw new ReadFileError(code, code);
  }
}

/** The open file's stat; throws `EISDIR`/`ENOTREG` for anything but a regular file, naming what it is. */
function regularStat(fd: number): Stats {
  const stat = fstatSync(fd);
  if (!stat.isFile()) {
    const what = stat.isDirectory() ? 'a directory' : stat.isFIFO() ? 'a FIFO' : stat.isSocket() ? 'a socket' : 'a device';
    throw new ReadFileError(stat.isDirectory() ? 'EISDIR' : 'ENOTREG', `not a regular file (${what})`);
  }
  return stat;
}

/**
 * The bytes of a regular file, at most `maxBytes` of them. A symbolic link is followed (the
 * target must be a regular file); anything else is refused without reading it.
 *
 * @param file absolute path
 * @throws {ReadFileError} with `code` `ENOTREG` (not a regular file), `EFBIG` (larger than the
 *   cap, checked on the size and again while reading, for a file that grows), or the `open`/`read`
 *   error's code (`ENOENT`, `EACCES`, `ELOOP`, `EISDIR`…)
 */
export function readRegularFileBytes(file: string, options: ReadOptions = {}): Buffer {
  const max = options.maxBytes ?? MAX_READ_BYTES;
  const fd = openFile(file);
  try {
    const stat = regularStat(fd);
    if (stat.size > max) throw tooLargeError(stat.size, max);
    // One buffer of the stated size plus a byte (to see the end, or growth) is filled first, so a
    // large file (the per-file cache: tens of MB) is not read in pieces and then copied again;
    // a file that grew, or whose size a special file system misstates, goes on in 1 MiB chunks.
    const chunks: Buffer[] = [];
    let total = 0;
    let chunk = Buffer.allocUnsafe(Math.min(stat.size + 1, max + 1));
    let filled = 0;
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, chunk, filled, chunk.length - filled, null);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
        throw new ReadFileError(code, code);
      }
      if (n === 0) break;
      filled += n;
      total += n;
      if (total > max) throw new ReadFileError('EFBIG', `over the ${formatBytes(max)} limit`);
      if (filled === chunk.length) {
        chunks.push(chunk);
        chunk = Buffer.allocUnsafe(Math.min(1 << 20, max + 1 - total));
        filled = 0;
      }
    }
    if (filled > 0) chunks.push(chunk.subarray(0, filled));
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

/** What {@link readSignedFileBytes} gives: the verified body, or why there is none. */
export type SignedRead = { body: Buffer; size: number } | { refused: 'truncated' | 'signature'; size: number };

/**
 * The body of a regular file made of a signature (`macBytes` bytes) and then the body it signs,
 * read into memory only once the signature verifies: a first pass streams the body through
 * `mac()` in 1 MiB chunks (so a forged file costs one chunk of memory, not its size), a second
 * reads it whole and verifies it again (the bytes returned are the bytes verified, even if the
 * file changed between the passes). The size is checked before anything is read.
 *
 * For files a repository can commit under a name docdrift writes (the per-file cache: a forged
 * 250 MB `pieces-*.bin` was read whole before its HMAC was checked; eight of them peaked at
 * 620 MB, s30 sweep D3).
 *
 * @param file absolute path; a symbolic link is followed, anything but a regular file refused
 * @param options `maxBytes` the largest size accepted (whole file, in bytes); `macBytes` the
 *   signature's length; `mac` a fresh keyed hash (`update(chunk)`, then `digest()`)
 * @returns `{ body, size }`, or `{ refused, size }` for a file shorter than its signature or
 *   whose signature does not verify; `size` is the file's size in bytes
 * @throws {ReadFileError} `EFBIG` (over `maxBytes`, nothing read), `ENOTREG`/`EISDIR`, or the
 *   `open`/`read` error's code (`ENOENT`, `EACCES`…)
 */
export function readSignedFileBytes(file: string, options: { maxBytes: number; macBytes: number; mac: () => { update(chunk: Uint8Array): unknown; digest(): Buffer } }): SignedRead {
  const { maxBytes, macBytes, mac } = options;
  const fd = openFile(file);
  try {
    const { size } = regularStat(fd);
    if (size > maxBytes) throw tooLargeError(size, maxBytes);
    const fill = (buffer: Buffer, position: number): number => {
      let filled = 0;
      while (filled < buffer.length) {
        const n = readSync(fd, buffer, filled, buffer.length - filled, position + filled);
        if (n === 0) break;
        filled += n;
      }
      return filled;
    };
    const signature = Buffer.alloc(macBytes);
    if (size < macBytes || fill(signature, 0) < macBytes) return { refused: 'truncated', size };
    const verifies = (digest: Buffer) => digest.length === signature.length && timingSafeEqual(digest, signature);
    const streamed = mac();
    const chunk = Buffer.allocUnsafe(Math.min(1 << 20, Math.max(1, size - macBytes)));
    for (let at = macBytes; at < size; ) {
      const n = fill(chunk, at);
      if (n === 0) break;
      streamed.update(chunk.subarray(0, n));
      at += n;
    }
    if (!verifies(streamed.digest())) return { refused: 'signature', size };
    const body = Buffer.allocUnsafe(size - macBytes);
    const n = fill(body, macBytes);
    const read = body.subarray(0, n);
    const again = mac();
    again.update(read);
    if (!verifies(again.digest())) return { refused: 'signature', size };
    return { body: read, size };
  } catch (error) {
    throw asReadFileError(error);
  } finally {
    closeSync(fd);
  }
}

/** `error` as a {@link ReadFileError}: itself when it is one, else one named by its errno code (`EIO` when it has none). */
function asReadFileError(error: unknown): ReadFileError {
  if (error instanceof ReadFileError) return error;
  const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
  return new ReadFileError(code, code);
}

/**
 * The first `bytes` bytes of a regular file (fewer when it is shorter), decoded as
 * {@link decodeText} does: enough to see a shebang. A FIFO, socket or device is refused without
 * reading it, as {@link readRegularFileBytes} does; a symbolic link is followed.
 *
 * @param file absolute path
 * @throws {ReadFileError} `ENOTREG`/`EISDIR`, or the `open`/`read` error's code
 */
export function readFileHead(file: string, bytes: number): string {
  const fd = openFile(file);
  try {
    regularStat(fd);
    const buffer = Buffer.allocUnsafe(bytes);
    let filled = 0;
    while (filled < bytes) {
      const n = readSync(fd, buffer, filled, bytes - filled, null);
      if (n === 0) break;
      filled += n;
    }
    return decodeText(buffer.subarray(0, filled));
  } catch (error) {
    throw asReadFileError(error);
  } finally {
    closeSync(fd);
  }
}

/** Default cap of {@link readProjectFile}: 16 MiB, far above any manifest or site config. */
export const MAX_PROJECT_FILE_BYTES = 16 * 1024 * 1024;

/**
 * The text of a file the project names by a fixed name or path (`pyproject.toml`,
 * `package.json`, `setup.cfg`, `setup.py`, `tsconfig.json`, `mkdocs.yml`, a versions file, a
 * source file): a regular file inside `root` only, at most `maxBytes`
 * (default {@link MAX_PROJECT_FILE_BYTES}). A symbolic link is followed while its target stays
 * inside the project (its real path under the root's real path); a FIFO, socket or device
 * (`package.json -> /dev/zero`: #33 sweep, 7–8 GB of memory; a FIFO `pyproject.toml`: a hang) is
 * refused without reading it, through {@link readRegularFileBytes}.
 *
 * @param root absolute project root
 * @param rel the file, relative to `root` (or absolute)
 * @throws {ReadFileError} `EOUTSIDE` (it resolves to a file outside the project), or as
 *   {@link readRegularFileBytes} (`ENOENT`, `ENOTREG`, `EFBIG`, `EACCES`…)
 */
export function readProjectFile(root: string, rel: string, options: ReadOptions = {}): string {
  const abs = path.resolve(root, rel);
  let real: string;
  let realRoot: string;
  try {
    real = realpathSync(abs);
    realRoot = realpathSync(root);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
    throw new ReadFileError(code, code);
  }
  if (escapesRoot(path.relative(realRoot, real))) {
    throw new ReadFileError('EOUTSIDE', 'a symbolic link to a file outside the project');
  }
  return decodeText(readRegularFileBytes(real, { maxBytes: options.maxBytes ?? MAX_PROJECT_FILE_BYTES }), rel);
}

/**
 * The size in bytes of the regular file `rel` under `root` (symbolic links followed), read from
 * its `stat` without opening it: `undefined` when it is missing, outside the project, not a
 * regular file or cannot be stat'ed (a read of it then says why). For caps decided before a
 * file is read into memory (a 57 MB bin/cli.js, #33 F11).
 */
export function projectFileSize(root: string, rel: string): number | undefined {
  try {
    const real = realpathSync(path.resolve(root, rel));
    if (escapesRoot(path.relative(realpathSync(root), real))) return undefined;
    const stat = statSync(real);
    return stat.isFile() ? stat.size : undefined;
  } catch {
    return undefined;
  }
}

/**
 * {@link readProjectFile} for a file that may be absent: undefined when it is missing (`ENOENT`,
 * `ENOTDIR`), or when it is refused or unreadable, then with a `parse-error` warning naming the
 * file and why pushed to `refused` (when given).
 */
export function readProjectFileOrNote(
  root: string, rel: string, refused?: Array<{ ruleId: 'parse-error'; severity: 'error' | 'warn'; message: string; location: { file: string; line: number; column: number } }>, options: ReadOptions = {},
): string | undefined {
  try {
    return readProjectFile(root, rel, options);
  } catch (error) {
    const code = error instanceof ReadFileError ? error.code : (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    // EACCES on a path whose folder this user may not search: whether the file exists is unknown,
    // and the folder is reported where it is listed (`unreadableDirectory`). Probing eight site
    // configs in an unreadable docs/ gave eight warnings for files that did not exist (s24 sweep note).
    if (code === 'EACCES' && !pathExists(path.resolve(root, rel))) return undefined;
    const file = path.relative(root, path.resolve(root, rel)).split(path.sep).join('/');
    if (refused && !refused.some((d) => d.location.file === file)) {
      const why = readErrorText(error);
      const line = error instanceof SourceCodingError ? error.line : 1;
      refused.push({ ruleId: 'parse-error', severity: 'warn', message: `Cannot read ${file}: ${why}${why.endsWith('is not read') ? '' : '; it is not read'}`, location: { file, line, column: 1 } });
    }
    return undefined;
  }
}

/** True when `lstat` finds something (a file, a link, a device) at `abs`: false when nothing is there, or it or a folder above it cannot be searched. */
export function pathExists(abs: string): boolean {
  try {
    lstatSync(abs);
    return true;
  } catch {
    return false;
  }
}

/** Whether `dir` is a non-empty path to an existing directory (symbolic links followed); false when it cannot be stat'ed. */
export function isDirectory(dir: string): boolean {
  if (dir === '') return false;
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/**
 * A regular file's text ({@link readRegularFileBytes}, then {@link decodeText}).
 *
 * @throws {ReadFileError} as {@link readRegularFileBytes}
 */
export function readRegularFile(file: string, options: ReadOptions = {}): string {
  return decodeText(readRegularFileBytes(file, options), file);
}

/**
 * Bytes as text, by byte-order mark: UTF-16 LE (`FF FE`) and BE (`FE FF`) are decoded as such
 * (Windows editors save reference pages that way); a UTF-8 BOM is kept as U+FEFF (the Markdown
 * parser and positions expect it; JSON readers strip it with {@link stripBom}); anything else is
 * UTF-8, invalid sequences becoming U+FFFD. A document (any file but a Python, JavaScript,
 * TypeScript or config source: {@link CODE_FILE_RE}) that starts with a UTF-32 byte-order mark,
 * or whose first 4 KiB look like UTF-16 without one ({@link bomlessUtf16}), is decoded as such
 * too: read as UTF-8 it named nothing and the run passed silently (s47 sweep J4). A Python source
 * (`file` ending `.py` or `.pyi`) is decoded in the codec its PEP 263 coding comment declares
 * ({@link pythonSourceCoding}), as CPython decodes it, and refused where CPython refuses it.
 *
 * @throws {SourceCodingError} for a Python source that CPython refuses (a UTF-16 or UTF-32 BOM, a
 *   NUL byte, a UTF-8 BOM with a coding comment that does not name UTF-8, bytes its codec cannot
 *   decode) or that declares a codec docdrift cannot decode as CPython does (`utf-7`,
 *   `unicode_escape`, `utf-16`…) or no codec CPython knows: read as UTF-8 it would be other text
 *   than Python's (#33 F9)
 * @throws {TextEncodingError} for a JavaScript, TypeScript or config source that starts with a
 *   UTF-32 byte-order mark or looks like UTF-16 without one: Node.js, the TypeScript compiler and
 *   the TOML, YAML and JSON readers do not read it as such text
 */
export function decodeText(bytes: Uint8Array, file?: string): string {
  const python = file !== undefined && PYTHON_FILE_RE.test(file);
  // CPython reads a source as bytes with at most a UTF-8 BOM: a UTF-16 or UTF-32 one (with the
  // NUL bytes its text then holds) is a SyntaxError, so such a module defines nothing (s45 sweep).
  if (python && bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes.length >= 4 && bytes[0] === 0 && bytes[1] === 0 && bytes[2] === 0xfe && bytes[3] === 0xff))) {
    throw new SourceBomError(bytes[0] === 0 || (bytes.length >= 4 && bytes[2] === 0 && bytes[3] === 0) ? 'UTF-32' : 'UTF-16', bytes[0]!);
  }
  const code = !python && file !== undefined && CODE_FILE_RE.test(file);
  const utf32 = utf32Bom(bytes);
  if (utf32 !== undefined) {
    if (code) throw new TextEncodingError(`it starts with a UTF-32 (${utf32 === 'le' ? 'little' : 'big'}-endian) byte-order mark`);
    return decodeUtf32(bytes.subarray(4), utf32 === 'le');
  }
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (python) {
    // CPython refuses a source holding a NUL byte ("SyntaxError: source code cannot contain null
    // bytes"): UTF-16 text without a byte-order mark is full of them (s47 sweep J4).
    const nul = buffer.indexOf(0);
    if (nul >= 0) throw new SourceNulError(lineAt(buffer, nul), bomlessUtf16(buffer));
    const coding = pythonSourceCoding(buffer);
    const codec = coding === undefined ? 'utf_8' : pythonCodecOf(coding.name);
    // A UTF-8 byte-order mark with a declaration that CPython's tokenizer does not take for UTF-8
    // itself: it refuses the file ("SyntaxError: encoding problem: iso-8859-1 with BOM", s46
    // sweep H10), `utf8`, `UTF8`, `u8`, `cp65001` included (s47 sweep J3), though they are UTF-8.
    if (coding !== undefined && !cpythonUtf8Name(coding.name) && bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
      throw new SourceBomCodingError(coding.line, coding.name);
    }
    // CPython decodes a source without a coding comment as UTF-8 and stops at its first invalid
    // sequence: such a module defines nothing, so docdrift reads nothing of it either.
    if ((codec === 'utf_8' || codec === 'utf_8_sig') && !isUtf8(buffer)) throw new SourceNotUtf8Error(buffer, coding !== undefined);
    if (coding === undefined) return pythonLineEnds(buffer.toString('utf8'));
    const text = codec === undefined ? undefined : decodeAsPython(codec, buffer);
    if (text === undefined) throw new SourceCodingError(coding.line, coding.name, codec !== undefined);
    // A byte the declared single-byte codec leaves undefined (`ascii` over 0x7F, cp1252's 0x81):
    // CPython refuses the file ("'ascii' codec can't decode byte 0xe9", s47 sweep J3).
    const undefinedAt = isTablePythonCodec(codec!) ? text.indexOf('\ufffd') : -1;
    if (undefinedAt >= 0) throw new SourceUndecodableError(lineAt(buffer, undefinedAt), coding.line, coding.name, buffer[undefinedAt]!);
    return pythonLineEnds(text);
  }
  const utf16 = bomlessUtf16(buffer);
  if (utf16 !== undefined) {
    if (code) throw new TextEncodingError(`it looks like UTF-16 (${utf16 === 'le' ? 'little' : 'big'}-endian) text without a byte-order mark`);
    return new TextDecoder(utf16 === 'le' ? 'utf-16le' : 'utf-16be').decode(buffer);
  }
  return buffer.toString('utf8');
}

/**
 * Sources read by tools that take UTF-8 (and, for some, a UTF-16 byte-order mark) only: Node.js
 * and the TypeScript compiler (JavaScript and TypeScript), the TOML, YAML, JSON and INI readers
 * (`pyproject.toml`, `mkdocs.yml`, `package.json`, `setup.cfg`). {@link decodeText} refuses them
 * where it would decode a document as UTF-32 or BOM-less UTF-16.
 */
const CODE_FILE_RE = /\.(?:[cm]?[jt]sx?|json5?|jsonc|toml|ya?ml|cfg|ini)$/i;

/** Whether CPython's tokenizer takes a declared coding name for UTF-8 itself (its `get_normal_name`: the first 12 characters lower-cased, `_` as `-`, are `utf-8` or start `utf-8-`): the only declaration it accepts after a UTF-8 BOM. */
function cpythonUtf8Name(name: string): boolean {
  const head = name.slice(0, 12).toLowerCase().replace(/_/g, '-');
  return head === 'utf-8' || head.startsWith('utf-8-');
}

/** The endianness of a UTF-32 byte-order mark `bytes` starts with (`FF FE 00 00`, `00 00 FE FF`), or undefined. */
function utf32Bom(bytes: Uint8Array): 'le' | 'be' | undefined {
  if (bytes.length < 4) return undefined;
  if (bytes[0] === 0xff && bytes[1] === 0xfe && bytes[2] === 0 && bytes[3] === 0) return 'le';
  if (bytes[0] === 0 && bytes[1] === 0 && bytes[2] === 0xfe && bytes[3] === 0xff) return 'be';
  return undefined;
}

/** UTF-32 `bytes` (no byte-order mark) as text; a unit above U+10FFFF, a surrogate or a trailing partial unit is U+FFFD. */
function decodeUtf32(bytes: Uint8Array, littleEndian: boolean): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunk: number[] = [];
  let out = '';
  for (let at = 0; at + 4 <= bytes.length; at += 4) {
    const cp = view.getUint32(at, littleEndian);
    chunk.push(cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? 0xfffd : cp);
    if (chunk.length === 8192) {
      out += String.fromCodePoint(...chunk);
      chunk.length = 0;
    }
  }
  if (bytes.length % 4 !== 0) chunk.push(0xfffd);
  return out + String.fromCodePoint(...chunk);
}

/** Bytes looked at by {@link bomlessUtf16}. */
const UTF16_SNIFF_BYTES = 4096;

/**
 * Whether `bytes` look like UTF-16 text without a byte-order mark, and which endianness: in the
 * first {@link UTF16_SNIFF_BYTES} bytes, at least two NUL bytes and a quarter of the 16-bit units
 * with a NUL byte at the same position (the high byte of Latin text: odd offsets for
 * little-endian, even for big-endian), and at most one eighth as many at the other position.
 * UTF-8 text holds no NUL but by accident (one at the start or the end stays UTF-8), binary data
 * holds them at both positions. Text written in a script outside Latin-1 has few such NULs and
 * is not recognised.
 */
export function bomlessUtf16(bytes: Uint8Array): 'le' | 'be' | undefined {
  const n = Math.min(bytes.length, UTF16_SNIFF_BYTES) & ~1;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) even++;
    if (bytes[i + 1] === 0) odd++;
  }
  const units = n / 2;
  if (odd >= 2 && odd * 4 >= units && even * 8 <= odd) return 'le';
  if (even >= 2 && even * 4 >= units && odd * 8 <= even) return 'be';
  return undefined;
}

/** The line (1-based) of byte `offset` in `bytes` (its end when past it), lines ending at LF, CRLF or a lone CR as CPython counts them. */
function lineAt(bytes: Buffer, offset: number): number {
  let line = 1;
  for (let i = 0; i < Math.min(offset, bytes.length); i++) {
    const c = bytes[i];
    if (c === 0x0a || (c === 0x0d && bytes[i + 1] !== 0x0a)) line++;
  }
  return line;
}

/**
 * A JavaScript, TypeScript or config source that starts with a UTF-32 byte-order mark or looks
 * like UTF-16 text without one ({@link decodeText}): the tools that read it (Node.js, the
 * TypeScript compiler, TOML, YAML and JSON readers) do not read it as such text, so docdrift does
 * not read it either. Code `EENCODING`; the message says what the file looks like and what to do.
 */
export class TextEncodingError extends ReadFileError {
  override name = 'TextEncodingError';
  constructor(what: string) {
    super('EENCODING', `${what}, which the tools that read it (Node.js, the TypeScript compiler, TOML, YAML and JSON readers) do not read as such; the file is not read. Save it as UTF-8`);
  }
}

/**
 * A Python source docdrift does not read because of the codec its PEP 263 coding comment
 * declares: one CPython has (`known`) but docdrift cannot decode as CPython does (`utf-7`,
 * `unicode_escape`, `utf-16`, EBCDIC `cp500`…), or a name that is no codec of CPython's standard
 * library (CPython stops with `SyntaxError: unknown encoding` unless a codec of that name is
 * installed). Its message names the line of the comment and the codec; `line` is that line
 * (1-based), for the diagnostic's position.
 */
export class SourceCodingError extends ReadFileError {
  override name = 'SourceCodingError';
  constructor(
    readonly line: number,
    readonly codec: string,
    readonly known: boolean,
  ) {
    super(
      'ECODING',
      known
        ? `its coding comment (line ${line}) declares \`${codec}\`, a codec docdrift cannot decode as Python does; the file is not read`
        : `its coding comment (line ${line}) declares \`${codec}\`, which is no codec of CPython's standard library (CPython stops with "SyntaxError: unknown encoding" unless one of that name is installed) and which docdrift cannot decode; the file is not read`,
    );
  }
}

/**
 * A Python source that starts with a UTF-16 or UTF-32 byte-order mark: CPython refuses it, coding
 * comment or not (3.11: "SyntaxError: Non-UTF-8 code starting with '\xff' … but no encoding
 * declared"), so docdrift does not read it either. Reported at line 1 as the other coding
 * refusals are; `firstByte` is the file's first byte, which CPython's message names.
 */
export class SourceBomError extends SourceCodingError {
  override name = 'SourceBomError';
  constructor(encoding: 'UTF-16' | 'UTF-32', firstByte: number) {
    super(1, encoding.toLowerCase().replace('-', '_'), true);
    this.message = `it starts with a ${encoding} byte-order mark, which CPython does not read as source ("SyntaxError: Non-UTF-8 code starting with '\\x${firstByte.toString(16).padStart(2, '0')}'"); the file is not read. Save it as UTF-8`;
  }
}

/**
 * A Python source that starts with a UTF-8 byte-order mark and declares another codec in its
 * coding comment: CPython refuses it ("SyntaxError: encoding problem: iso-8859-1 with BOM",
 * Parser/tokenizer.c `check_coding_spec`), so docdrift does not read it either.
 */
export class SourceBomCodingError extends SourceCodingError {
  override name = 'SourceBomCodingError';
  constructor(line: number, codec: string) {
    super(line, codec, true);
    this.message = `it starts with a UTF-8 byte-order mark but its coding comment (line ${line}) declares \`${codec}\`, which CPython refuses ("SyntaxError: encoding problem: ${codec} with BOM"); the file is not read. Remove the byte-order mark or the coding comment`;
  }
}

/**
 * A Python source holding a NUL byte: CPython refuses it ("SyntaxError: source code cannot contain
 * null bytes"), so docdrift does not read it either. `utf16` is the endianness when the file looks
 * like UTF-16 text without a byte-order mark ({@link bomlessUtf16}), which the message then names
 * (s47 sweep J4); `line` (1-based) is the line of the first NUL.
 */
export class SourceNulError extends SourceCodingError {
  override name = 'SourceNulError';
  constructor(line: number, utf16: 'le' | 'be' | undefined) {
    super(utf16 === undefined ? line : 1, 'utf_8', true);
    this.message = utf16 === undefined
      ? `line ${line} holds a NUL byte, which CPython refuses ("SyntaxError: source code cannot contain null bytes"); the file is not read`
      : `it looks like UTF-16 (${utf16 === 'le' ? 'little' : 'big'}-endian) text without a byte-order mark, whose NUL bytes CPython refuses ("SyntaxError: source code cannot contain null bytes"); the file is not read. Save it as UTF-8`;
  }
}

/**
 * A Python source holding a byte that the single-byte codec its coding comment declares leaves
 * undefined (`ascii` and any byte over 0x7F, `cp1252` and 0x81): CPython refuses the file
 * ("SyntaxError: 'ascii' codec can't decode byte 0xe9 in position 18"), so docdrift does not read
 * it either (s47 sweep J3: it was read with U+FFFD there). `line` (1-based) is the byte's line,
 * `codingLine` the comment's.
 */
export class SourceUndecodableError extends SourceCodingError {
  override name = 'SourceUndecodableError';
  constructor(line: number, codingLine: number, codec: string, byte: number) {
    super(line, codec, true);
    const hex = byte.toString(16).padStart(2, '0');
    this.message = `line ${line} holds byte 0x${hex}, which \`${codec}\`, the codec its coding comment (line ${codingLine}) declares, cannot decode, so CPython refuses the file ("SyntaxError: … codec can't decode byte 0x${hex}"); the file is not read. Declare the file's real encoding or save it as UTF-8`;
  }
}

/**
 * A Python source whose bytes are not valid UTF-8 while it is read as UTF-8 (no coding comment,
 * or one declaring `utf-8`): CPython's tokenizer stops at the first line holding an invalid
 * sequence ("SyntaxError: Non-UTF-8 code starting with '\xe9' in file … on line 3, but no
 * encoding declared; see https://peps.python.org/pep-0263/ for details", CPython
 * Parser/tokenizer.c `ensure_utf8`; with a `utf-8` declaration the UTF-8 codec's "can't decode
 * byte"), so the module defines nothing. `line` (1-based) is that line, the byte the first of the
 * invalid sequence, found as CPython's `valid_utf8` finds it.
 */
export class SourceNotUtf8Error extends SourceCodingError {
  override name = 'SourceNotUtf8Error';
  constructor(bytes: Uint8Array, declared: boolean) {
    const { line, byte } = firstInvalidUtf8(bytes);
    super(line, 'utf_8', true);
    const hex = byte.toString(16).padStart(2, '0');
    this.message = declared
      ? `line ${line} is not valid UTF-8 (byte 0x${hex}), the encoding its coding comment declares, so CPython cannot read it ("SyntaxError: (unicode error) 'utf-8' codec can't decode byte 0x${hex}"); the file is not read. Save it as UTF-8 or declare its real encoding`
      : `line ${line} is not valid UTF-8 and the file declares no encoding, so CPython does not read it ("SyntaxError: Non-UTF-8 code starting with '\\x${hex}' … but no encoding declared"); the file is not read. Save it as UTF-8 or declare its encoding in a coding comment (PEP 263)`;
  }
}

/**
 * The line (1-based) and first byte of the first invalid UTF-8 sequence in `bytes`, by CPython's
 * rules (Parser/tokenizer.c `valid_utf8`: no overlong forms, no surrogates, nothing above
 * U+10FFFF). `{ line: 1, byte: 0 }` when all of it is valid.
 */
function firstInvalidUtf8(bytes: Uint8Array): { line: number; byte: number } {
  let line = 1;
  const at = (i: number): number => (i < bytes.length ? bytes[i]! : 0);
  for (let i = 0; i < bytes.length; ) {
    const c = bytes[i]!;
    if (c < 0x80) {
      // A line ends at LF, CRLF or a lone CR, as CPython counts lines.
      if (c === 0x0a || (c === 0x0d && at(i + 1) !== 0x0a)) line++;
      i++;
      continue;
    }
    let expected: number;
    if (c < 0xe0) expected = c < 0xc2 ? -1 : 1;
    else if (c < 0xf0) expected = (c === 0xe0 && at(i + 1) < 0xa0) || (c === 0xed && at(i + 1) >= 0xa0) ? -1 : 2;
    else if (c < 0xf5) expected = (c === 0xf0 && at(i + 1) < 0x90) || (c === 0xf4 && at(i + 1) >= 0x90) ? -1 : 3;
    else expected = -1;
    for (let k = 1; k <= expected && expected > 0; k++) if (at(i + k) < 0x80 || at(i + k) >= 0xc0) expected = -1;
    if (expected < 0) return { line, byte: c };
    i += expected + 1;
  }
  return { line: 1, byte: 0 };
}

/**
 * The {@link SourceCodingError} of a Python source given as text (an editor's buffer, decoded
 * already) that holds a NUL character or whose coding comment declares a codec docdrift cannot decode or no codec at all: the
 * file on disk is refused so ({@link decodeText}), and a buffer says what a CLI run says of it.
 * Undefined for any other text, and for a file that is not a Python source.
 */
export function pythonTextCodingError(file: string, text: string): SourceCodingError | undefined {
  if (!PYTHON_FILE_RE.test(file)) return undefined;
  // A NUL character: CPython refuses the file as {@link decodeText} does.
  const nul = text.indexOf('\0');
  if (nul >= 0) return new SourceNulError(lineAt(Buffer.from(text.slice(0, nul), 'utf8'), Infinity), undefined);
  if (!text.includes('coding')) return undefined;
  // CPython reads the declaration on the first two lines only.
  let end = 0;
  for (let line = 0; line < 2 && end < text.length; line++) {
    const next = text.slice(end).search(/\r\n?|\n/);
    if (next < 0) {
      end = text.length;
      break;
    }
    end += next + (text.startsWith('\r\n', end + next) ? 2 : 1);
  }
  const coding = pythonSourceCoding(Buffer.from(text.slice(0, end), 'utf8'));
  if (coding === undefined) return undefined;
  const codec = pythonCodecOf(coding.name);
  return codec !== undefined && decodesAsPython(codec) ? undefined : new SourceCodingError(coding.line, coding.name, codec !== undefined);
}

/**
 * A Python source with each lone CR as a line feed: CPython ends a line at `\r\n`, `\n` or a lone
 * `\r` (docs.python.org/3/reference/lexical_analysis.html, "Physical lines"), the tree-sitter
 * grammar only at `\n`, so a comment ending in a lone CR swallowed the next line (`# helper\rimport
 * click`: no CLI found, s39 sweep D1). One character for one: offsets and lengths are kept.
 */
export function pythonLineEnds(text: string): string {
  return text.includes('\r') ? text.replace(/\r(?!\n)/g, '\n') : text;
}

/**
 * `texts` (project path → text, such as a language server's open buffers) with each Python
 * source's lone CRs as line feeds ({@link pythonLineEnds}), as {@link decodeText} reads a Python
 * file on disk: the same map when no Python text holds a CR (s40 sweep D1: an open buffer
 * `# helper\r…` gave no diagnostics in the editor where the CLI found two).
 */
export function withPythonLineEnds(texts: ReadonlyMap<string, string>): ReadonlyMap<string, string> {
  let out: Map<string, string> | undefined;
  for (const [file, text] of texts) {
    if (!PYTHON_FILE_RE.test(file) || !text.includes('\r')) continue;
    out ??= new Map(texts);
    out.set(file, pythonLineEnds(text));
  }
  return out ?? texts;
}

/** Python source files, whose text may declare its encoding ({@link pythonSourceCoding}). */
const PYTHON_FILE_RE = /\.pyi?$/i;

/**
 * The codec a PEP 263 coding comment on the line `bytes[start, end)` declares (a comment on line 1
 * or 2 matching `^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)`: peps.python.org/pep-0263, "Defining the
 * Encoding"), as CPython's tokenizer reads it (the whole line, however long), or undefined. The line must start with optional blanks and `#`; the first `coding` followed by
 * `:` or `=` after that names the codec. Found with `Buffer.indexOf`, so a line of megabytes costs
 * one native scan (s43 sweep F3: only the first 400 characters were read, and a declaration
 * further along the line was missed, a latin-1 default read as U+FFFD and `--fix` wrote it).
 */
function codingOfLine(bytes: Buffer, start: number, end: number): string | undefined {
  let at = start;
  while (at < end && (bytes[at] === 0x20 || bytes[at] === 0x09 || bytes[at] === 0x0c)) at++;
  if (bytes[at] !== 0x23) return undefined;
  for (let found = bytes.indexOf('coding', at + 1, 'latin1'); found >= 0 && found + 6 < end; found = bytes.indexOf('coding', found + 1, 'latin1')) {
    const sep = bytes[found + 6];
    if (sep !== 0x3a && sep !== 0x3d) continue;
    let from = found + 7;
    while (from < end && (bytes[from] === 0x20 || bytes[from] === 0x09)) from++;
    let to = from;
    while (to < end && to - from < 64 && /[-_.a-zA-Z0-9]/.test(String.fromCharCode(bytes[to]!))) to++;
    // `coding:` with no name after it: CPython's pattern goes on to a later `coding`.
    if (to > from) return bytes.toString('latin1', from, to);
  }
  return undefined;
}

/** Whether the line `bytes[start, end)` is blank or a comment (blanks, then `#` or nothing), as CPython decides whether to read line 2 for a coding comment. */
function commentOrBlank(bytes: Buffer, start: number, end: number): boolean {
  let at = start;
  while (at < end && (bytes[at] === 0x20 || bytes[at] === 0x09 || bytes[at] === 0x0c)) at++;
  return at === end || bytes[at] === 0x23;
}

/**
 * The codec a Python source declares (PEP 263: `# -*- coding: latin-1 -*-` on its first line, or
 * its second when the first is a comment or blank, as CPython's tokenizer reads it): the name as
 * written (`latin-1`, `utf-7`; {@link pythonCodecOf} says which codec CPython takes it for) and
 * its line (1 or 2), or undefined when none is declared.
 */
export function pythonSourceCoding(bytes: Buffer): { name: string; line: number } | undefined {
  // After a UTF-8 byte-order mark, as CPython reads it (it then allows only a UTF-8 declaration).
  let start = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  for (let line = 0; line < 2 && start < bytes.length; line++) {
    // A line ends at LF, CRLF or a lone CR, as CPython reads source lines (s41 sweep D3: a coding
    // line after a line ending in a lone CR was not seen, and a latin-1 default read as U+FFFD).
    const lf = bytes.indexOf(0x0a, start);
    const cr = bytes.indexOf(0x0d, start);
    const end = Math.min(lf < 0 ? bytes.length : lf, cr < 0 ? bytes.length : cr);
    const codec = codingOfLine(bytes, start, end);
    if (codec !== undefined) return { name: codec, line: line + 1 };
    // CPython looks at line 2 only when line 1 is a comment or blank.
    if (!commentOrBlank(bytes, start, end)) return undefined;
    start = bytes[end] === 0x0d && bytes[end + 1] === 0x0a ? end + 2 : end + 1;
  }
  return undefined;
}

/** The text without a leading U+FEFF (a UTF-8 BOM), for JSON and YAML readers that reject it. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** `12.3 MB`, `512 KB`, `90 B`. */
function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} B`;
}

/**
 * A read error as diagnostics print it: the code alone for the system's errors (`EACCES`, as
 * before), the code and the reason for docdrift's own (`ENOTREG (not a regular file (a FIFO))`).
 */
export function readErrorText(error: unknown): string {
  if (error instanceof SourceCodingError || error instanceof TextEncodingError) return error.message;
  if (error instanceof ReadFileError) return error.message === error.code ? error.code : `${error.code} (${error.message})`;
  return (error as NodeJS.ErrnoException).code ?? String(error);
}

/**
 * The `parse-error` for a directory that could not be listed (EACCES): its files were not
 * checked, so the run says so instead of passing silently or failing as an internal error.
 */
export function unreadableDirectory(dir: string): { ruleId: 'parse-error'; severity: 'error'; message: string; location: { file: string; line: number; column: number } } {
  return {
    ruleId: 'parse-error',
    severity: 'error',
    message: `Cannot read the directory ${dir}: EACCES; the files in it were not checked`,
    location: { file: dir, line: 1, column: 1 },
  };
}
