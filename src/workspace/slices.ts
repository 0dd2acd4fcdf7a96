/**
 * Time slices for long jobs in a process that also answers requests (the MCP server): a job calls
 * {@link Slicer.pause} often (after a file, a folder, a link phase) and the slicer yields to the event
 * loop once a slice's budget is spent, so no request waits longer than about one slice.
 */

import { runStepsWithPauses } from "../steps.ts";
import { memoryPacer } from "./memory.ts";

/** The longest a job runs between two yields, when its steps are short enough. */
const SLICE_MS = 10;

export class Slicer {
  private last = performance.now();

  constructor(private readonly budgetMs = SLICE_MS) {}

  /**
   * Yields to the event loop when the current slice is spent; else resolves at once. Before, the
   * process's {@link memoryPacer} may collect young garbage (a huge input's phases; see `memory.ts`).
   */
  async pause(): Promise<void> {
    memoryPacer.step();
    if (performance.now() - this.last < this.budgetMs) return;
    await this.yieldNow();
  }

  /**
   * Yields to the event loop now, and starts a new slice: for a job started by a timer, which the
   * loop may run right after another job's step, before the requests waiting for input.
   */
  async yieldNow(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.last = performance.now();
  }

  /** Runs the steps of `steps` with a pause after each, and returns its result. */
  drive<T>(steps: Generator<void, T, void>): Promise<T> {
    return runStepsWithPauses(steps, () => this.pause());
  }
}
