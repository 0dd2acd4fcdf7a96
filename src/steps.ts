/**
 * Long computations written as generators that yield between their steps (a link phase, a folder of a
 * scan, a few hundred snapshot files): run at once where nothing else waits (the CLI), or with a pause
 * between steps where a server must keep answering (see `workspace/slices.ts`).
 */

/** Runs `steps` to its end at once and returns its result. */
export function runSteps<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * Runs `steps` to its end, awaiting `pause` after each step, and returns its result. When a pause fails,
 * the steps are ended (`return()`, so their `finally` blocks run: a file half-written is removed) and the
 * failure is rethrown.
 */
export async function runStepsWithPauses<T>(steps: Generator<void, T, void>, pause: () => Promise<void>): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    try {
      await pause();
    } catch (e) {
      steps.return(undefined as T);
      throw e;
    }
  }
}
