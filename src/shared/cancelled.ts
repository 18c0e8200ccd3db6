/**
 * A run given up by its caller (the language server, when an edit makes the lint in progress
 * outdated: #33 s38 sweep D8). Thrown from the points where a run asks whether to go on
 * (`LintOptions.cancelled` in src/engine/lint.ts, the document parser's wait in
 * src/docs/bounded-parse.ts); never an internal error.
 */
export class RunCancelled extends Error {
  override name = 'RunCancelled';
  constructor() {
    super('the run was given up: its inputs changed');
  }
}

/** True for a {@link RunCancelled} (by name too: the bundle may hold the class twice). */
export function isRunCancelled(error: unknown): error is RunCancelled {
  return error instanceof RunCancelled || (error instanceof Error && error.name === 'RunCancelled');
}
