/** Scoping a run's messages to the paths given on the command line. */
import path from 'node:path';
import type { DriftMessage } from '../model/rule.js';
import { lowerBound } from '../shared/ranges.js';

/** An absolute or root-relative path as a project-relative POSIX path (`''` for the root itself). */
export function toProjectPath(root: string, file: string): string {
  const abs = path.resolve(root, file);
  return path.relative(root, abs).split(path.sep).join('/');
}

/**
 * The messages located in `files` (files or directories, absolute or root-relative), in their
 * order; all of them when `files` is undefined or empty. Messages without a file are dropped
 * when scoping.
 */
export function scopeMessages(root: string, messages: DriftMessage[], files: string[] | undefined): DriftMessage[] {
  if (!files || files.length === 0) return messages;
  const wanted = files.map((f) => toProjectPath(root, f));
  const inScope = (file: string): boolean => wanted.some((w) => w === '' || file === w || file.startsWith(`${w}/`));
  return messages.filter((m) => m.file !== undefined && inScope(m.file));
}

/**
 * The path arguments (absolute paths, as the CLI expanded them) that name nothing the run read:
 * a file that is none of `inputs` (project-relative: the documents, sources, packaging and other
 * files the run discovered) nor one of `also` (the config file, the baseline), or a directory
 * holding none of them. Nothing can be reported for such a path, so a run given only those would
 * pass having checked nothing for them (#33, s23 sweep O6: `docdrift -- docs/-o` exited 0
 * silently). Returned project-relative, in argument order, each once.
 */
export function unreadPaths(root: string, paths: readonly string[], inputs: readonly string[], also: readonly string[] = []): string[] {
  const read = new Set([...inputs, ...also.map((f) => toProjectPath(root, f))]);
  const sorted = [...read].sort();
  const holdsInput = (dir: string): boolean => {
    if (dir === '') return sorted.length > 0;
    const prefix = `${dir}/`;
    // The first input at or after `prefix` in sort order starts with it if any does.
    const at = lowerBound(sorted, prefix);
    return at < sorted.length && sorted[at]!.startsWith(prefix);
  };
  const out = new Set<string>();
  for (const abs of paths) {
    const rel = toProjectPath(root, abs);
    if (!read.has(rel) && !holdsInput(rel)) out.add(rel === '' ? '.' : rel);
  }
  return [...out];
}
