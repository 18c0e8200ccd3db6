/** Scoping a run's messages to the paths given on the command line. */
import path from 'node:path';
import type { DriftMessage } from '../model/rule.js';

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
