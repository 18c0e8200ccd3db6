/**
 * Writes inside the project are checked where the file was opened, not only when the run starts:
 * a folder on the path replaced by a symbolic link to a folder outside the project while the run
 * lints is never followed at write time (#33 item 10, s32 sweep D1). Node has no openat(2); the
 * swaps are injected between the open and the check.
 */
import * as fs from 'node:fs';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli.js';
import { checkOpenedPath, openForWriteInside, PathChangedError, writeFileAtomic, type AtomicFs, type OpenFs } from '../src/engine/write.js';

const BASE = path.resolve(import.meta.dirname, '../fixtures/bad-input/_base');
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** `project/` with an `out/` folder, and `outside/` beside it. */
function sandbox(withBase = false): { project: string; outside: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-write-race-'));
  temps.push(dir);
  const project = path.join(dir, 'project');
  const outside = path.join(dir, 'outside');
  if (withBase) cpSync(BASE, project, { recursive: true });
  mkdirSync(path.join(project, 'out'), { recursive: true });
  mkdirSync(outside);
  return { project, outside };
}

/** Replaces `folder` (emptied) by a symbolic link to `target`. */
function swapForLink(folder: string, target: string): void {
  rmSync(folder, { recursive: true, force: true });
  symlinkSync(target, folder);
}

/** An fs whose `call` runs `before` once, the first time, then the real call. */
function racing<T extends object>(base: T, call: keyof T, before: () => void): T {
  let done = false;
  return {
    ...base,
    [call]: (...args: unknown[]) => {
      if (!done) {
        done = true;
        before();
      }
      return (base[call] as (...a: unknown[]) => unknown)(...args);
    },
  };
}

describe('checkOpenedPath', () => {
  it('passes for the file opened, and names a folder that became a link after the open', () => {
    const { project, outside } = sandbox();
    const file = path.join(project, 'out/report.txt');
    writeFileSync(file, 'x');
    const opened = fs.statSync(file);
    expect(() => checkOpenedPath(project, file, opened)).not.toThrow();
    // The same name now leads elsewhere: moved out with its folder, a link in its place.
    renameSync(path.join(project, 'out'), path.join(outside, 'out'));
    symlinkSync(path.join(outside, 'out'), path.join(project, 'out'));
    expect(() => checkOpenedPath(project, file, opened)).toThrow(PathChangedError);
    expect(() => checkOpenedPath(project, file, opened)).toThrow(/^out \(on the way to out\/report\.txt\) became a symlink \(to .*outside\/out\) while docdrift ran;.*nothing was written\.$/);
  });

  it('refuses a path that names another file than the one opened, and leaves paths outside the root alone', () => {
    const { project, outside } = sandbox();
    const file = path.join(project, 'out/report.txt');
    writeFileSync(file, 'x');
    const opened = fs.statSync(file);
    // Moved aside (its inode kept busy, so the new file gets another), a new file in its place.
    renameSync(file, path.join(project, 'out/old.txt'));
    writeFileSync(file, 'y');
    expect(() => checkOpenedPath(project, file, opened)).toThrow('out/report.txt no longer names the file docdrift opened');
    const away = path.join(outside, 'r.txt');
    writeFileSync(away, 'z');
    expect(() => checkOpenedPath(project, away, opened)).not.toThrow();
  });
});

describe('openForWriteInside (the -o and --summary open)', () => {
  it('a folder swapped for a link between the check and the open: refused, the file it made outside removed', () => {
    const { project, outside } = sandbox();
    const file = path.join(project, 'out/report.txt');
    const swapping = racing<OpenFs>(fs, 'openSync', () => swapForLink(path.join(project, 'out'), outside));
    expect(() => openForWriteInside(project, file, fs.constants.O_WRONLY, 0o666, swapping)).toThrow(PathChangedError);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('an existing file outside reached through the link is left whole (never truncated by the open)', () => {
    const { project, outside } = sandbox();
    writeFileSync(path.join(outside, 'report.txt'), 'victim\n');
    const swapping = racing<OpenFs>(fs, 'openSync', () => swapForLink(path.join(project, 'out'), outside));
    expect(() => openForWriteInside(project, path.join(project, 'out/report.txt'), fs.constants.O_WRONLY, 0o666, swapping)).toThrow(PathChangedError);
    expect(readFileSync(path.join(outside, 'report.txt'), 'utf8')).toBe('victim\n');
  });

  it('opens (and creates) a file whose path is unchanged', () => {
    const { project } = sandbox();
    const fd = openForWriteInside(project, path.join(project, 'out/report.txt'), fs.constants.O_WRONLY);
    fs.writeSync(fd, 'ok');
    fs.closeSync(fd);
    expect(readFileSync(path.join(project, 'out/report.txt'), 'utf8')).toBe('ok');
  });
});

describe('writeFileAtomic with the root (baseline, cache, init, --fix)', () => {
  it('a folder swapped for a link before the temporary file is made: refused, nothing left outside', () => {
    const { project, outside } = sandbox();
    const file = path.join(project, 'out/.docdrift-baseline.json');
    const swapping = racing<AtomicFs>(fs, 'openSync', () => swapForLink(path.join(project, 'out'), outside));
    expect(() => writeFileAtomic(file, '{}\n', { fs: swapping, root: project })).toThrow(PathChangedError);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('a folder moved outside and linked back between the temporary file and the rename: refused, the temporary file removed', () => {
    const { project, outside } = sandbox();
    const file = path.join(project, 'out/run.json');
    const swapping = racing<AtomicFs>(fs, 'fsyncSync', () => {
      renameSync(path.join(project, 'out'), path.join(outside, 'out'));
      symlinkSync(path.join(outside, 'out'), path.join(project, 'out'));
    });
    expect(() => writeFileAtomic(file, '{}\n', { fs: swapping, root: project })).toThrow(/^out \(on the way to out\/run\.json\) became a symlink/);
    expect(readdirSync(path.join(outside, 'out'))).toEqual([]);
  });
});

describe('the CLI: -o, --summary and --write-baseline into a folder that becomes a link while the run lints', () => {
  /** Runs the CLI in this process; the first status line (`--progress`, one line per stage) swaps `out/` for a link to `outside`. */
  async function runSwapping(project: string, outside: string, args: string[]): Promise<{ code: number; stderr: string }> {
    let stderr = '';
    let swapped = false;
    const code = await main(['--root', project, '--no-cache', '--progress', ...args], {
      stdout: () => {},
      stderr: (text) => {
        stderr += text;
      },
      cwd: project,
      isTTY: false,
      env: { NO_COLOR: '1' },
      progressStream: {
        isTTY: false,
        write: () => {
          if (!swapped) {
            swapped = true;
            swapForLink(path.join(project, 'out'), outside);
          }
          return true;
        },
      },
    });
    expect(swapped).toBe(true);
    return { code, stderr };
  }

  for (const [what, args, name] of [
    ['-o', ['-o', 'out/report.txt'], 'out/report.txt'],
    ['--summary', ['--summary', 'out/summary.md'], 'out/summary.md'],
    ['--write-baseline', ['--write-baseline', '--baseline', 'out/baseline.json'], 'out/baseline.json'],
  ] as const) {
    it(`${what}: exit 2 with one line naming the link, nothing written outside`, async () => {
      const { project, outside } = sandbox(true);
      const r = await runSwapping(project, outside, [...args]);
      expect(r.code, r.stderr).toBe(2);
      // The baseline's own check runs right before its write, and sees the link first.
      const said = what === '--write-baseline' ? 'out is a symlink' : `out \\(on the way to ${name.replace('.', '\\.')}\\) became a symlink`;
      expect(r.stderr).toMatch(new RegExp(`${said} \\(to ${outside.replace(/[.]/g, '\\.')}\\)`));
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(readdirSync(outside)).toEqual([]);
      expect(existsSync(path.join(outside, path.basename(name)))).toBe(false);
    });
  }
});
