/**
 * Long computations written as generators that yield between their steps (a link phase, a folder of a
 * scan, a few hundred snapshot files): run at once where nothing else waits (the CLI), or with a pause
 * between steps where a server must keep answering (see `workspace/slices.ts`).
 */

/** Runs `steps` to its end at once (calling `between`, when given, after each step) and returns its result. */
export function runSteps<T>(steps: Generator<void, T, void>, between?: () => void): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    between?.();
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

/** Items sorted at once by {@link sortSteps} (each run a step), and items merged between two yields. */
const SORT_RUN = 4096;
const MERGE_STEP = 16384;

/**
 * Sorts `items` (32-bit integers: indexes) in place by `compare`, in steps: runs of `run` items sorted at once, then merged pairwise
 * (stable), yielding after each run and every {@link MERGE_STEP} items merged. `compare` must be a total
 * order (no two items equal, e.g. ties broken by the items themselves): the result is then exactly that of
 * `items.sort(compare)`. At most `run` items are sorted without a yield.
 * @example runSteps(sortSteps(order, (x, y) => key[x] - key[y] || x - y))
 */
export function* sortSteps(
  items: Int32Array | number[],
  compare: (x: number, y: number) => number,
  run = SORT_RUN,
): Generator<void, void, void> {
  const n = items.length;
  if (n <= run) {
    items.sort(compare);
    return;
  }
  let src = Int32Array.from(items);
  for (let lo = 0; lo < n; lo += run) {
    src.subarray(lo, Math.min(n, lo + run)).sort(compare);
    yield;
  }
  let dst = new Int32Array(n);
  let moved = 0;
  for (let width = run; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width);
      const hi = Math.min(n, lo + 2 * width);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        // The left one on a tie: stable (a total order has none).
        dst[k++] = compare(src[j], src[i]) < 0 ? src[j++] : src[i++];
        if (++moved % MERGE_STEP === 0) yield;
      }
      while (i < mid) dst[k++] = src[i++];
      while (j < hi) dst[k++] = src[j++];
    }
    [src, dst] = [dst, src];
    yield;
  }
  for (let k = 0; k < n; k++) items[k] = src[k];
}
