/** The first-run notes on stderr: one `docdrift: <note>` line each (see `runNotes` in src/engine/notes.ts). */

import { escapeLine } from '../shared/escape.js';

/** The stderr text of the notes: one line per note (a line feed inside one, from a file name, is written `\n`), each prefixed `docdrift: `; empty when there are none. */
export function formatNotes(notes: readonly string[]): string {
  return notes.map((n) => `docdrift: ${escapeLine(n)}\n`).join('');
}
