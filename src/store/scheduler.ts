/**
 * Quiet-period merging of snapshot writes: every change (re)starts a timer, and the write runs once the
 * changes have been quiet for `quietMs`: a burst of edits costs one write, never one per edit. A change
 * marked prompt (the first complete build, which a short-lived process must not lose) is written on the
 * next turn of the event loop instead. At most one write runs at a time; changes that arrive during a
 * write cause exactly one follow-up write.
 */

/** The timer functions the writer uses (injectable, so tests drive time by hand). */
export interface QuietClock {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Real timers; they do not keep the process alive (call `flush()` before exiting). */
const systemClock: QuietClock = {
  setTimeout(fn, ms) {
    const h = setTimeout(fn, ms);
    (h as { unref?: () => void }).unref?.();
    return h;
  },
  clearTimeout(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};

export class QuietPeriodWriter {
  private timer: unknown = null;
  /** Changes not yet covered by a write that started after them. */
  private dirty = false;
  private inflight: Promise<void> | null = null;
  private disposed = false;
  /** A prompt write is scheduled: later changes ride along instead of postponing it. */
  private prompt = false;

  /**
   * @param write saves the current state; a thrown error or rejection goes to `onError` (the next change
   *   schedules a new write; a failed write is not retried in a loop)
   * @param quietMs how long changes must stop before a write
   */
  constructor(
    private readonly write: () => void | Promise<void>,
    readonly quietMs = 3000,
    private readonly clock: QuietClock = systemClock,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** True when changes are waiting for a write. */
  get pending(): boolean {
    return this.dirty;
  }

  /** True while a write runs. */
  get writing(): boolean {
    return this.inflight !== null;
  }

  /** Records a change and (re)starts the quiet timer. */
  changed(): void {
    if (this.disposed) return;
    this.dirty = true;
    if (this.prompt) return;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = this.clock.setTimeout(() => this.onQuiet(), this.quietMs);
  }

  /**
   * Records a change to write without waiting for quiet: on the next turn of the event loop (after the
   * running write, if any). Changes recorded before that write runs are in it.
   */
  changedPromptly(): void {
    if (this.disposed) return;
    this.dirty = true;
    if (this.prompt) return;
    this.prompt = true;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = this.clock.setTimeout(() => this.onQuiet(), 0);
  }

  /** Writes now if changes are pending (after any running write); resolves when nothing is left to write. */
  async flush(): Promise<void> {
    this.cancelTimer();
    while (this.inflight || (this.dirty && !this.disposed)) {
      if (this.inflight) await this.inflight;
      else this.start();
    }
  }

  /** Stops the timer; pending changes are dropped (call `flush()` first to keep them). */
  dispose(): void {
    this.disposed = true;
    this.cancelTimer();
  }

  private cancelTimer(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.prompt = false;
  }

  private onQuiet(): void {
    this.timer = null;
    this.prompt = false;
    // During a write, the follow-up starts when that write finishes (see start()).
    if (!this.inflight && this.dirty && !this.disposed) this.start();
  }

  private start(): void {
    this.cancelTimer();
    this.dirty = false;
    const run = async (): Promise<void> => {
      try {
        await this.write();
      } catch (e) {
        this.onError(e);
      }
    };
    const p = run().finally(() => {
      this.inflight = null;
      // Changes arrived during the write and their quiet period is already over: one follow-up write.
      if (this.dirty && this.timer === null && !this.disposed) this.start();
    });
    this.inflight = p;
  }
}
