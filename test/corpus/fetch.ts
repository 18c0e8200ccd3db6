/**
 * `npm run corpus:fetch`: makes the corpus snapshots `DIR/<id>/` (every tracked file of the
 * entry's commit, `git init`-ed with one commit so `git ls-files` works), from a local bare
 * mirror when there is one, else from a blobless clone of GitHub kept in `DIR/.clones/`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { packageRoot } from './run.js';
import { type CorpusEntry, CorpusError, loadEntries } from './schema.js';

const HELP = `Usage: npm run corpus:fetch -- --snapshots DIR [--mirrors DIR] [--only ID]… [--repos DIR]

Makes DIR/<id> for each corpus entry that does not have it yet: the entry's commit exported from
<mirrors>/<owner>+<name>/repo (a bare git directory) or else from a blobless clone of
https://github.com/<owner>/<name> cached in DIR/.clones, then git init + one commit.
Entries that cannot be fetched are listed; the others are still made.

  --snapshots DIR  where the snapshots go (created if needed)
  --mirrors DIR    folder of bare mirrors named <owner>+<name>/repo (e.g. /work/.mirror)
  --only ID        only this entry (repeatable)
  --repos DIR      entries folder (default test/corpus/repos)
  -h, --help       this help
`;

function git(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): { ok: boolean; out: string; err: string } {
  const r = spawnSync('git', args, { ...options, encoding: 'utf8', maxBuffer: 1 << 30, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', ...options.env } });
  return { ok: r.status === 0, out: r.stdout ?? '', err: (r.stderr ?? r.error?.message ?? '').trim() };
}

/** Where a repository is cloned from when no mirror has it. */
export const githubUrl = (repo: string): string => `https://github.com/${repo}.git`;

const hasCommit = (gitDir: string, commit: string): boolean => git(['--git-dir', gitDir, 'cat-file', '-e', `${commit}^{commit}`]).ok;

/**
 * Finds a git directory holding `entry.commit`: the mirror, else the cached blobless clone
 * (cloned or fetched as needed).
 * @returns The git dir, or why there is none.
 */
export function sourceOf(entry: CorpusEntry, snapshots: string, mirrors: string | undefined, cloneUrl: (repo: string) => string = githubUrl): { gitDir?: string; why?: string } {
  const slug = entry.repo.replace('/', '+');
  const reasons: string[] = [];
  if (mirrors) {
    const mirror = path.join(mirrors, slug, 'repo');
    if (existsSync(mirror)) {
      if (hasCommit(mirror, entry.commit)) return { gitDir: mirror };
      reasons.push(`mirror ${mirror} lacks commit ${entry.commit}`);
    } else reasons.push(`no mirror ${mirror}`);
  }
  const clone = path.join(snapshots, '.clones', `${slug}.git`);
  if (!existsSync(clone)) {
    mkdirSync(path.dirname(clone), { recursive: true });
    const r = git(['clone', '--quiet', '--bare', '--filter=blob:none', cloneUrl(entry.repo), clone]);
    if (!r.ok) {
      rmSync(clone, { recursive: true, force: true });
      reasons.push(`git clone failed: ${r.err.split('\n').pop()}`);
      return { why: reasons.join('; ') };
    }
  }
  if (!hasCommit(clone, entry.commit)) {
    const r = git(['--git-dir', clone, 'fetch', '--quiet', '--filter=blob:none', 'origin', entry.commit]);
    if (!r.ok || !hasCommit(clone, entry.commit)) {
      reasons.push(`commit not in ${clone} and git fetch failed: ${r.err.split('\n').pop()}`);
      return { why: reasons.join('; ') };
    }
  }
  return { gitDir: clone };
}

/**
 * Exports `commit` of `gitDir` into `dest` (which must not exist) and commits it in a fresh
 * repository. The export is `git read-tree` + `git checkout-index` into a temporary index: every
 * tracked file, like `git archive | tar -x` but without dropping `export-ignore` paths (some
 * projects export-ignore their docs). Mirrors made by the fetch tool may lack large blobs (media,
 * data): those files are left out and listed in `skipped`. Built in `dest.partial` and renamed,
 * so a failed export leaves nothing.
 * @returns `why` it failed, or the project paths of blobs absent from `gitDir` that were left out.
 */
export function exportSnapshot(gitDir: string, commit: string, dest: string): { why?: string; skipped: string[] } {
  const partial = `${dest}.partial`;
  const index = path.join(path.dirname(partial), `.${path.basename(dest)}.index`);
  const env = { GIT_INDEX_FILE: index };
  const skipped: string[] = [];
  const fresh = (): void => {
    rmSync(partial, { recursive: true, force: true });
    rmSync(index, { force: true });
    mkdirSync(partial, { recursive: true });
  };
  try {
    fresh();
    let r = git(['--git-dir', gitDir, 'read-tree', commit], { env });
    if (!r.ok) return { why: `export failed: ${r.err.split('\n').slice(-2).join(' ')}`, skipped };
    r = git(['--git-dir', gitDir, '--work-tree', partial, 'checkout-index', '--all', '--force'], { env });
    if (!r.ok) {
      // Retry with only the blobs the git dir has.
      const tree = git(['--git-dir', gitDir, 'ls-tree', '-r', '-z', '--full-tree', commit]);
      if (!tree.ok) return { why: `export failed: ${tree.err}`, skipped };
      const blobs = tree.out
        .split('\0')
        .filter(Boolean)
        .map((line) => {
          const [meta, file] = line.split('\t') as [string, string];
          const [mode, type, sha] = meta.split(' ') as [string, string, string];
          return { mode, type, sha, file };
        })
        .filter((e) => e.type === 'blob');
      const check = spawnSync('git', ['--git-dir', gitDir, 'cat-file', '--batch-check=%(objectname) %(objecttype)'], {
        input: blobs.map((b) => b.sha).join('\n') + '\n',
        encoding: 'utf8',
        maxBuffer: 1 << 30,
      });
      const present = new Set(check.stdout.split('\n').filter((l) => l.endsWith(' blob')).map((l) => l.split(' ')[0]));
      fresh();
      const info = blobs.filter((b) => present.has(b.sha)).map((b) => `${b.mode} ${b.sha}\t${b.file}\0`).join('');
      for (const b of blobs) if (!present.has(b.sha)) skipped.push(b.file);
      const upd = spawnSync('git', ['--git-dir', gitDir, 'update-index', '-z', '--index-info'], { input: info, env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 1 << 30 });
      if (upd.status !== 0) return { why: `export failed: ${(upd.stderr ?? '').trim()}`, skipped };
      r = git(['--git-dir', gitDir, '--work-tree', partial, 'checkout-index', '--all', '--force'], { env });
      if (!r.ok) return { why: `export failed: ${r.err.split('\n').slice(-2).join(' ')}`, skipped };
    }
    r = git(['init', '--quiet'], { cwd: partial });
    // The files are the commit's bytes as stored: no `.gitattributes` conversion applies when they
    // are added again (Sphinx's `working-tree-encoding=iso-8859-1` test file fails to re-encode).
    if (r.ok) {
      mkdirSync(path.join(partial, '.git', 'info'), { recursive: true });
      writeFileSync(path.join(partial, '.git', 'info', 'attributes'), '* -text -working-tree-encoding -filter -ident\n');
    }
    if (r.ok) r = git(['add', '--all', '--force'], { cwd: partial });
    if (r.ok) r = git(['-c', 'user.name=corpus', '-c', 'user.email=corpus@localhost', '-c', 'commit.gpgsign=false', 'commit', '--quiet', '--no-verify', '-m', `snapshot of ${commit}`], { cwd: partial });
    if (!r.ok) return { why: `git init/commit failed: ${r.err.split('\n').pop()}`, skipped };
    renameSync(partial, dest);
    return { skipped };
  } finally {
    rmSync(index, { force: true });
    rmSync(partial, { recursive: true, force: true });
  }
}

/** Makes the missing snapshots. @returns Ids made, already present, and failed (with the reason). */
export function fetchSnapshots(
  entries: readonly CorpusEntry[],
  snapshots: string,
  mirrors: string | undefined,
  log: (line: string) => void = () => {},
  cloneUrl: (repo: string) => string = githubUrl,
): { made: string[]; present: string[]; failed: Array<{ id: string; why: string }>; skipped: Array<{ id: string; files: string[] }> } {
  mkdirSync(snapshots, { recursive: true });
  const out = { made: [] as string[], present: [] as string[], failed: [] as Array<{ id: string; why: string }>, skipped: [] as Array<{ id: string; files: string[] }> };
  for (const entry of entries) {
    const dest = path.join(snapshots, entry.id);
    if (existsSync(dest)) {
      out.present.push(entry.id);
      continue;
    }
    const source = sourceOf(entry, snapshots, mirrors, cloneUrl);
    const exported = source.gitDir ? exportSnapshot(source.gitDir, entry.commit, dest) : { why: source.why, skipped: [] };
    if (exported.why) {
      out.failed.push({ id: entry.id, why: exported.why });
      log(`${entry.id}: MISSING — ${exported.why}`);
    } else {
      out.made.push(entry.id);
      if (exported.skipped.length > 0) out.skipped.push({ id: entry.id, files: exported.skipped });
      const note = exported.skipped.length > 0 ? ` (${exported.skipped.length} file(s) left out, their blobs are not in the git dir: ${exported.skipped.slice(0, 3).join(', ')}${exported.skipped.length > 3 ? ', …' : ''})` : '';
      log(`${entry.id}: made from ${source.gitDir}${note}`);
    }
  }
  return out;
}

/** `npm run corpus:fetch` itself. @returns 0 when every snapshot exists afterwards, 1 when some could not be made, 2 on usage or bad entries. */
export function main(argv: string[]): number {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        snapshots: { type: 'string' },
        mirrors: { type: 'string' },
        only: { type: 'string', multiple: true },
        repos: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    process.stderr.write(`corpus:fetch: ${(error as Error).message}\n${HELP}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (!values.snapshots) {
    process.stderr.write(`corpus:fetch: --snapshots DIR is required.\n${HELP}`);
    return 2;
  }
  let entries: CorpusEntry[];
  try {
    entries = loadEntries(path.resolve(values.repos ?? path.join(packageRoot(), 'test/corpus/repos')));
  } catch (error) {
    if (error instanceof CorpusError) {
      process.stderr.write(`corpus:fetch: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const only = values.only ?? [];
  const unknown = only.filter((id) => !entries.some((e) => e.id === id));
  if (unknown.length > 0) {
    process.stderr.write(`corpus:fetch: --only: no entry has id ${unknown.join(', ')}\n`);
    return 2;
  }
  const selected = only.length > 0 ? entries.filter((e) => only.includes(e.id)) : entries;
  const r = fetchSnapshots(selected, path.resolve(values.snapshots), values.mirrors && path.resolve(values.mirrors), (l) => process.stderr.write(`${l}\n`));
  process.stdout.write(`snapshots: ${r.made.length} made, ${r.present.length} already present, ${r.failed.length} missing\n`);
  for (const f of r.failed) process.stdout.write(`  missing ${f.id}: ${f.why}\n`);
  for (const f of r.skipped) process.stdout.write(`  ${f.id}: ${f.files.length} file(s) left out (blob not in the git dir): ${f.files.slice(0, 5).join(', ')}${f.files.length > 5 ? ', …' : ''}\n`);
  return r.failed.length > 0 ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
