/**
 * A one-line progress bar on stderr, shown only on a terminal (never when piped, with --no-progress
 * or --quiet), throttled so it costs nothing on fast runs.
 */

export interface ProgressSink {
  /** Reports `done` of `total` units of `phase`. */
  update(phase: string, done: number, total: number): void;
  /** Clears the bar. */
  finish(): void;
}

const NO_PROGRESS: ProgressSink = { update() {}, finish() {} };

/** A progress bar writing to `stream` when it is a TTY and `enabled`, else a no-op sink. */
export function progressBar(stream: NodeJS.WriteStream, enabled: boolean): ProgressSink {
  if (!enabled || !stream.isTTY) return NO_PROGRESS;
  let last = 0;
  let shown = false;
  const started = Date.now();
  return {
    update(phase, done, total) {
      const now = Date.now();
      // Runs under half a second never show a bar; afterwards redraw at most 10 times a second.
      if (now - started < 500 || (now - last < 100 && done < total)) return;
      last = now;
      shown = true;
      const width = 24;
      const frac = total > 0 ? Math.min(1, done / total) : 0;
      const filled = Math.round(frac * width);
      const bar = "#".repeat(filled) + "-".repeat(width - filled);
      stream.write(`\r${phase.padEnd(10)} [${bar}] ${done}/${total}\u001b[K`);
    },
    finish() {
      if (shown) stream.write("\r\u001b[K");
      shown = false;
    },
  };
}
