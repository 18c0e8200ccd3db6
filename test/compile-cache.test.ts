/** The compile cache folder (#33 s26 sweep3 O4): per user, 0700, refused when another user could write it. */
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { compileCacheDirectory } from '../src/shared/compile-cache.js';
import { CLI_BIN } from './helpers.js';

const BIN = CLI_BIN;
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});
function scratch(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'docdrift-ccache-'));
  temps.push(dir);
  return dir;
}
const uid = process.getuid?.();

describe.skipIf(uid === undefined)('compileCacheDirectory', () => {
  it('creates <base>/docdrift-compile-cache-<uid> with mode 0700, and uses it again', () => {
    const base = scratch();
    const dir = compileCacheDirectory(base, uid);
    expect(dir).toBe(path.join(base, `docdrift-compile-cache-${uid}`));
    expect(statSync(dir!).mode & 0o777).toBe(0o700);
    expect(compileCacheDirectory(base, uid)).toBe(dir);
  });

  it('refuses a folder others may write, a symbolic link to a folder, and a file', () => {
    const open = scratch();
    mkdirSync(path.join(open, `docdrift-compile-cache-${uid}`));
    chmodSync(path.join(open, `docdrift-compile-cache-${uid}`), 0o777);
    expect(compileCacheDirectory(open, uid)).toBeUndefined();
    const linked = scratch();
    mkdirSync(path.join(linked, 'elsewhere'), { mode: 0o700 });
    symlinkSync(path.join(linked, 'elsewhere'), path.join(linked, `docdrift-compile-cache-${uid}`));
    expect(compileCacheDirectory(linked, uid)).toBeUndefined();
    const file = scratch();
    rmSync(file, { recursive: true });
    mkdirSync(file);
    spawnSync('touch', [path.join(file, `docdrift-compile-cache-${uid}`)]);
    expect(compileCacheDirectory(file, uid)).toBeUndefined();
  });

  it.runIf(uid === 0)("refuses a folder owned by another user (made first by someone else: they would control the cached code)", () => {
    const base = scratch();
    const planted = path.join(base, 'docdrift-compile-cache-0');
    mkdirSync(planted, { mode: 0o700 });
    chownSync(planted, 65534, 65534);
    expect(compileCacheDirectory(base, 0)).toBeUndefined();
  });

  it('is undefined when the folder cannot be made (its parent is missing)', () => {
    expect(compileCacheDirectory(path.join(scratch(), 'missing', 'deeper'), uid)).toBeUndefined();
  });
});

const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
describe.runIf(uid !== undefined && (major > 22 || (major === 22 && minor >= 1)))('the bin on Node 22.1+', () => {
  it("keeps compiled code in the user's own folder, not in the shared node-compile-cache, and runs without a cache where the folder is not safe", () => {
    const base = scratch();
    const env = { ...process.env, TMPDIR: base, NODE_COMPILE_CACHE: '', NO_COLOR: '1' };
    delete (env as Record<string, string | undefined>).NODE_COMPILE_CACHE;
    const r = spawnSync(process.execPath, [BIN, '--version'], { env, encoding: 'utf8' });
    expect(r.status).toBe(0);
    const own = path.join(base, `docdrift-compile-cache-${uid}`);
    expect(readdirSync(own).length).toBeGreaterThan(0);
    expect(readdirSync(base)).not.toContain('node-compile-cache');
    // A folder planted writable by all: not used, the run still works.
    const planted = scratch();
    mkdirSync(path.join(planted, `docdrift-compile-cache-${uid}`));
    chmodSync(path.join(planted, `docdrift-compile-cache-${uid}`), 0o777);
    const again = spawnSync(process.execPath, [BIN, '--version'], { env: { ...env, TMPDIR: planted }, encoding: 'utf8' });
    expect(again.status).toBe(0);
    expect(readdirSync(path.join(planted, `docdrift-compile-cache-${uid}`))).toEqual([]);
    expect(readdirSync(planted)).not.toContain('node-compile-cache');
  });
});
