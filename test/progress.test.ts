/**
 * The status line of long runs (issue #32 item 3): never in non-terminal output unless
 * `--progress` asks, plain lines then; on a terminal, drawn in place after the delay and erased.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createProgress, progressMode, type ProgressStream } from '../src/report/progress.js';
import { CLI_BIN, removeTempDirs } from './helpers.js';

afterAll(removeTempDirs);
const EXAMPLE = path.resolve(import.meta.dirname, '..', 'fixtures', 'example-python');

function run(...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env['CI'];
  return spawnSync(process.execPath, [CLI_BIN, '--root', EXAMPLE, '--no-cache', ...args], { encoding: 'utf8', env });
}

/** A stand-in terminal that records what is written. */
function fakeStream(isTTY: boolean): ProgressStream & { out: string[] } {
  const out: string[] = [];
  return { out, isTTY, columns: 40, write: (text: string) => out.push(text) };
}

describe('the status line, end to end', () => {
  it('is never written when stderr is not a terminal', () => {
    const r = run();
    expect(r.stderr).not.toMatch(/finding files|reading docs|running rules/);
  });

  it('--progress writes one plain line per stage on a non-terminal, before the report and notes', () => {
    const plain = run();
    const r = run('--progress');
    expect(r.status).toBe(plain.status);
    expect(r.stdout).toBe(plain.stdout);
    const lines = r.stderr.split('\n').filter(Boolean);
    const progress = lines.filter((l) => /^docdrift: (finding files|reading code|reading docs|linking code and docs|running rules)/.test(l));
    expect(progress[0]).toBe('docdrift: finding files');
    expect(progress).toContain('docdrift: running rules');
    expect(progress.some((l) => /^docdrift: reading docs \(\d+ files?\)$/.test(l))).toBe(true);
    // Nothing else changed: the other lines are those of a run without it.
    expect(lines.filter((l) => !progress.includes(l))).toEqual(plain.stderr.split('\n').filter(Boolean));
  });

  it('--progress with --no-progress is refused', () => {
    const r = run('--progress', '--no-progress');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--no-progress');
  });
});

describe('progressMode', () => {
  const tty = fakeStream(true);
  const pipe = fakeStream(false);
  it.each([
    ['a terminal, no flags', {}, tty, {}, 'tty'],
    ['a terminal in CI', {}, tty, { CI: 'true' }, 'off'],
    ['a terminal with CI=false', {}, tty, { CI: 'false' }, 'tty'],
    ['a dumb terminal', {}, tty, { TERM: 'dumb' }, 'off'],
    ['a terminal with --quiet', { quiet: true }, tty, {}, 'off'],
    ['a terminal with --no-progress', { noProgress: true }, tty, {}, 'off'],
    ['a pipe', {}, pipe, {}, 'off'],
    ['a pipe with --progress', { progress: true }, pipe, { CI: 'true' }, 'lines'],
    ['a terminal in CI with --progress', { progress: true }, tty, { CI: 'true' }, 'tty'],
    ['no stream', { progress: true }, undefined, {}, 'off'],
  ] as const)('%s', (_, flags, stream, env, mode) => {
    expect(progressMode({ noProgress: false, quiet: false, ...flags }, stream, env)).toBe(mode);
  });
});

describe('createProgress on a terminal', () => {
  it('draws nothing before the delay, then one line cut to the width, and erases it at the end', () => {
    let t = 0;
    const stream = fakeStream(true);
    const progress = createProgress('tty', stream, 1000, () => t);
    progress.update({ stage: 'docs', done: 1, total: 400 });
    expect(stream.out).toEqual([]);
    t = 1500;
    progress.update({ stage: 'docs', done: 200, total: 400 });
    const drawn = stream.out.join('');
    expect(drawn).toContain('docdrift: reading docs 200/400');
    expect(drawn.length).toBeLessThanOrEqual(40 + 20);
    // Updates closer together than a redraw are skipped; the last file of a stage is drawn.
    const before = stream.out.length;
    t = 1510;
    progress.update({ stage: 'docs', done: 201, total: 400 });
    expect(stream.out.length).toBe(before);
    progress.update({ stage: 'docs', done: 400, total: 400 });
    expect(stream.out.join('')).toContain('400/400');
    stream.out.length = 0;
    progress.stop();
    // Erased with the TTY helpers (clear the line, back to its start), and silent from then on.
    expect(stream.out.join('')).toBe('\x1b[2K\x1b[1G');
    t = 5000;
    progress.update({ stage: 'rules' });
    expect(stream.out.join('')).toBe('\x1b[2K\x1b[1G');
  });

  it('a text longer than the terminal is cut, never wrapped', () => {
    const stream = { ...fakeStream(true), columns: 16 };
    const progress = createProgress('tty', stream, 0, () => 0);
    progress.update({ stage: 'model' });
    const line = stream.out.filter((w) => !w.startsWith('\x1b')).join('');
    expect(line).toBe('docdrift: link…');
    // A terminal that reports no width is taken to be 80 wide, not cut to nothing.
    const unsized = { ...fakeStream(true), columns: 0 };
    const p2 = createProgress('tty', unsized, 0, () => 0);
    p2.update({ stage: 'docs', done: 3, total: 9 });
    expect(unsized.out.join('')).toContain('docdrift: reading docs 3/9');
  });
});
