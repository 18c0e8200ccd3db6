/** The first-run notes on stderr: one `docdrift: <note>` line each (see `runNotes` in src/engine/notes.ts). */

/** The stderr text of the notes: one line per note, each prefixed `docdrift: `; empty when there are none. */
export function formatNotes(notes: readonly string[]): string {
  return notes.map((n) => `docdrift: ${n}\n`).join('');
}
