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

/**
 * A progress bar drawn with `write` when `enabled` (the caller tells whether stderr is a terminal), else a
 * no-op sink. `now` is the clock (injected by tests).
 */
export function progressBar(
  write: (text: string) => void,
  enabled: boolean,
  now: () => number = Date.now,
): ProgressSink {
  if (!enabled) return NO_PROGRESS;
  let last = 0;
  let shown = false;
  const started = now();
  return {
    update(phase, done, total) {
      const t = now();
      // Runs under half a second never show a bar; afterwards redraw at most 10 times a second.
      if (t - started < 500 || (t - last < 100 && done < total)) return;
      last = t;
      shown = true;
      const width = 24;
      const frac = total > 0 ? Math.min(1, done / total) : 0;
      const filled = Math.round(frac * width);
      const bar = "#".repeat(filled) + "-".repeat(width - filled);
      write(`\r${phase.padEnd(10)} [${bar}] ${done}/${total}\u001b[K`);
    },
    finish() {
      if (shown) write("\r\u001b[K");
      shown = false;
    },
  };
}
