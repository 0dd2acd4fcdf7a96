/**
 * The memory pacer (issue 15 item 4): between two steps of a long job it collects young garbage once the
 * process is past 640 MB and has grown by 32 MB since its last collection; it reads the resident size
 * at most every 20 ms, and does nothing where the runtime has no collector.
 */
import { describe, expect, test } from "bun:test";
import { MemoryPacer } from "../../src/workspace/memory.ts";

const MB = 1024 * 1024;

/** A pacer over a scripted clock and resident size, counting its collections and size reads. */
function scripted(withCollector = true) {
  const state = { now: 0, rss: 100 * MB, reads: 0, collections: [] as number[] };
  const pacer = new MemoryPacer({
    now: () => state.now,
    rss: () => {
      state.reads++;
      return state.rss;
    },
    collect: withCollector ? () => state.collections.push(state.rss / MB) : null,
  });
  /** One step at `ms` with the process at `mb` megabytes. */
  const step = (ms: number, mb: number) => {
    state.now = ms;
    state.rss = mb * MB;
    pacer.step();
  };
  pacers.set(state, pacer);
  return { state, step };
}

const pacers = new WeakMap<object, MemoryPacer>();
/** The pacer of a {@link scripted} state. */
const pacerOf = (state: object): MemoryPacer => pacers.get(state)!;

describe("the memory pacer", () => {
  test("below 640 MB it never collects; past it, once per 32 MB of growth since the last collection", () => {
    const { state, step } = scripted();
    step(0, 300);
    step(25, 630);
    expect(state.collections).toEqual([]);
    step(50, 650); // past the threshold, 20 MB above the last size seen below it: not yet
    step(75, 663); // 33 MB above it
    step(100, 690); // 27 MB above the last collection
    step(125, 696); // 33
    step(150, 1000);
    expect(state.collections).toEqual([663, 696, 1000]);
  });

  test("it reads the size at most every 20 ms", () => {
    const { state, step } = scripted();
    step(0, 700);
    step(5, 800);
    step(19, 900);
    expect([state.reads, state.collections]).toEqual([2, [700]]); // the step at 0 (and its re-read after collecting)
    step(21, 900);
    expect([state.reads, state.collections]).toEqual([4, [700, 900]]);
  });

  test("a collection made elsewhere (a phase end's) counts as its last one", () => {
    const { state, step } = scripted();
    step(0, 700); // collects at once (600 MB grown since the start)
    state.collections.length = 0;
    step(25, 720);
    step(50, 740); // 40 MB above the last collection…
    expect(state.collections).toEqual([740]);
    state.rss = 900 * MB;
    // …but a full collection elsewhere brought it to 900 (the size read now): growth counts from there.
    pacerOf(state).collected();
    step(75, 920);
    expect(state.collections).toEqual([740]);
    step(100, 935);
    expect(state.collections).toEqual([740, 935]);
  });

  test("without a collector it does nothing, not even read the size", () => {
    const { state, step } = scripted(false);
    step(0, 2000);
    step(100, 4000);
    expect([state.reads, state.collections]).toEqual([0, []]);
  });
});
