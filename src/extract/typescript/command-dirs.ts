/** Which files a yargs `.commandDir()` may load, found by text before any parsing (so discovery hands them to the flag reader). */
import { dirname, joinPath } from './scan.js';
import { pushUnique } from '../../shared/arrays.js';

/**
 * `.commandDir('cmds')`, `.commandDir(path.join(__dirname, 'cmds'))`,
 * `.commandDir(resolve(__dirname, 'cmds'))`, `` .commandDir(`${__dirname}/cmds`) ``: the folder
 * written, relative to the calling file.
 */
const COMMAND_DIR = /\.commandDir\(\s*(?:(?:path\.)?(?:join|resolve)\(\s*__dirname\s*,\s*(['"])([^'"]+)\1|`\$\{__dirname\}\/([^`$]+)`|(['"`])([^'"`$]+)\4)/g;

/**
 * The project-relative folders the `.commandDir()` calls of one file name (a superset of what
 * the flag reader will load: it reads `extensions`, `recurse`, `include` and `exclude` itself).
 * Folders written any other way are not listed.
 *
 * @param file Project-relative POSIX path of the calling file.
 * @param text Its source text.
 */
export function commandDirFolders(file: string, text: string): string[] {
  if (!text.includes('commandDir')) return [];
  const out: string[] = [];
  for (const m of text.matchAll(COMMAND_DIR)) {
    const written = (m[2] ?? m[3] ?? m[5] ?? '').trim();
    if (written === '' || written.startsWith('/')) continue;
    const dir = joinPath(dirname(file), written);
    if (dir !== undefined) pushUnique(out, dir);
  }
  return out;
}

/**
 * `files` plus every source under a folder that a `.commandDir()` call of one of them names,
 * repeated for the files so added (command modules whose builders call `.commandDir()` again).
 */
export function withCommandDirs(files: Set<string>, sources: ReadonlyArray<{ file: string; text: string }>): Set<string> {
  const texts = new Map(sources.map((s) => [s.file, s.text]));
  const queue = [...files];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    for (const dir of commandDirFolders(file, texts.get(file) ?? '')) {
      for (const s of sources) {
        if (!s.file.startsWith(`${dir}/`) || files.has(s.file)) continue;
        files.add(s.file);
        queue.push(s.file);
      }
    }
  }
  return files;
}
