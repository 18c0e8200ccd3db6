/**
 * The status line of a long run (issue #32 item 3): on a terminal, one line on stderr that is
 * rewritten in place (stage, files done / total) from about a second into the run, and erased at
 * the end; with `--progress` on a stream that is no terminal (a CI log), one plain line per stage.
 * The terminal is driven with Node's own TTY helpers (`readline.clearLine`/`cursorTo`), not
 * hand-written escape codes.
 */
import { clearLine, cursorTo } from 'node:readline';
import type { ProgressEvent, ProgressListener } from '../engine/lint.js';

/** The stream the status line is written to: `process.stderr`, or a stand-in in tests. */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  /** Width of the terminal in characters, when it is one. */
  columns?: number;
}

/** How the status line is shown: rewritten in place (`tty`), one line per stage (`lines`), or not at all. */
export type ProgressMode = 'tty' | 'lines' | 'off';

/** A terminal run shows its status line only once it has lasted this long (milliseconds): short runs never flicker. */
export const PROGRESS_DELAY_MS = 1000;

/** Least time between two renderings of the terminal line (milliseconds). */
const REDRAW_MS = 80;

const STAGE_TEXT: Record<ProgressEvent['stage'], string> = {
  discover: 'finding files',
  hash: 'hashing files',
  extract: 'reading code',
  docs: 'reading docs',
  model: 'linking code and docs',
  rules: 'running rules',
};

/**
 * Whether and how to show the status line: never with `--no-progress` or `--quiet` (unless
 * `--progress` asks); with `--progress`, in place on a terminal and as plain lines otherwise;
 * by default only in place on a terminal, and not when `CI` is set (to anything but `0`/`false`)
 * or `TERM` is `dumb`.
 */
export function progressMode(flags: { progress?: boolean; noProgress: boolean; quiet: boolean }, stream: ProgressStream | undefined, env: NodeJS.ProcessEnv): ProgressMode {
  if (!stream || flags.noProgress) return 'off';
  const tty = stream.isTTY === true && env['TERM'] !== 'dumb';
  if (flags.progress) return tty ? 'tty' : 'lines';
  if (flags.quiet || !tty) return 'off';
  const ci = env['CI'];
  if (ci !== undefined && ci !== '' && !/^(0|false)$/i.test(ci)) return 'off';
  return 'tty';
}

/** The text of one event: `docdrift: reading docs 120/421`. */
export function progressText(event: ProgressEvent): string {
  const counts = event.total !== undefined ? ` ${event.done ?? 0}/${event.total}` : '';
  return `docdrift: ${STAGE_TEXT[event.stage]}${counts}`;
}

/** A status line: `update` is the run's {@link ProgressListener}; `clear` takes the line off the terminal before other stderr text; `stop` ends it. */
export interface Progress {
  update: ProgressListener;
  /** Erases the line if it is shown (it comes back at the next update); call before writing to stderr. */
  clear(): void;
  /** Erases the line for good; later updates are ignored. */
  stop(): void;
}

/**
 * A status line in `mode` on `stream`. In `tty` mode nothing is drawn before `delayMs` have passed
 * since it was created, then at most every {@link REDRAW_MS}; the line is cut to the terminal's
 * width so that it never wraps. In `lines` mode each new stage is one line, at once. Updates are
 * called synchronously from the run, so the line is drawn from them rather than from a timer.
 */
export function createProgress(mode: ProgressMode, stream: ProgressStream | undefined, delayMs = PROGRESS_DELAY_MS, now: () => number = () => performance.now()): Progress {
  const start = now();
  let stopped = mode === 'off' || stream === undefined;
  let shown = false;
  let lastDraw = -Infinity;
  let lastStage: ProgressEvent['stage'] | undefined;
  const erase = (): void => {
    if (!shown || !stream) return;
    clearLine(stream as NodeJS.WritableStream, 0);
    cursorTo(stream as NodeJS.WritableStream, 0);
    shown = false;
  };
  return {
    update(event) {
      if (stopped || !stream) return;
      if (mode === 'lines') {
        // One line per stage: a CI log gets a few lines, not one per file.
        if (event.stage === lastStage) return;
        lastStage = event.stage;
        stream.write(`docdrift: ${STAGE_TEXT[event.stage]}${event.total !== undefined ? ` (${event.total} file${event.total === 1 ? '' : 's'})` : ''}\n`);
        return;
      }
      const t = now();
      const last = event.total !== undefined && event.done === event.total;
      if (t - start < delayMs || (t - lastDraw < REDRAW_MS && !last)) return;
      lastDraw = t;
      // A terminal that reports no width (0: a pty without a window size) is taken to be 80 wide.
      const width = Math.max(10, (stream.columns && stream.columns > 0 ? stream.columns : 80) - 1);
      const text = progressText(event);
      erase();
      stream.write(text.length > width ? `${text.slice(0, width - 1)}…` : text);
      shown = true;
    },
    clear: erase,
    stop() {
      erase();
      stopped = true;
    },
  };
}
