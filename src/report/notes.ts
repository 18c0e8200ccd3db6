/** The first-run notes on stderr: one `docdrift: <note>` line each (see `runNotes` in src/engine/notes.ts). */

import { escapeLine } from '../shared/escape.js';
import { headOf, tailFrom } from '../shared/strings.js';

/**
 * The longest a note is written on stderr, in UTF-16 code units; a longer one keeps its first
 * 2,500 and last 1,000 with a marker between (what it says to do is at its end). Notes quote
 * names and targets from the repository: a console-script target of 60,000 blanks made a 60 KB
 * stderr line (#33 s27).
 */
export const MAX_NOTE_LENGTH = 4000;

/** `note` as shown: whole, or cut in the middle past {@link MAX_NOTE_LENGTH} (never inside a surrogate pair). */
function shownNote(note: string): string {
  if (note.length <= MAX_NOTE_LENGTH) return note;
  const head = headOf(note, 2500);
  const tail = tailFrom(note, note.length - 1000);
  return `${head} […${(note.length - head.length - tail.length).toLocaleString('en-US')} characters left out…] ${tail}`;
}

/** The stderr text of the notes: one line per note (a line feed inside one, from a file name, is written `\n`), each prefixed `docdrift: ` and cut past {@link MAX_NOTE_LENGTH}; empty when there are none. */
export function formatNotes(notes: readonly string[]): string {
  return notes.map((n) => `docdrift: ${escapeLine(shownNote(n))}\n`).join('');
}
