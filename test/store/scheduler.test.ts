// Quiet-period merging, driven by a fake clock.
import { describe, expect, test } from "bun:test";
import { type QuietClock, QuietPeriodWriter } from "../../src/store/scheduler.ts";

/** Timers that fire only when the test advances time. */
class FakeClock implements QuietClock {
  now = 0;
  private timers = new Map<number, { at: number; fn: () => void }>();
  private next = 1;

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.timers.set(id, { at: this.now + ms, fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  get pendingTimers(): number {
    return this.timers.size;
  }

  /** Moves time forward, firing due timers in order, and lets promise callbacks run. */
  async advance(ms: number): Promise<void> {
    const end = this.now + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, t]) =>
        t.at <= end
      ).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.now = due[1].at;
      due[1].fn();
      await settle();
    }
    this.now = end;
    await settle();
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

/** A write that completes only when the test says so. */
function gatedWrite() {
  const calls: number[] = [];
  let release: (() => void) | null = null;
  const write = () => {
    calls.push(calls.length + 1);
    return new Promise<void>((r) => (release = r));
  };
  return { calls, write, finish: () => (release!(), (release = null)) };
}

describe("QuietPeriodWriter", () => {
  test("a burst of 500 changes within the quiet period causes exactly one write, quietMs after the last", async () => {
    const clock = new FakeClock();
    let writes = 0;
    const w = new QuietPeriodWriter(() => void writes++, 3000, clock);
    for (let i = 0; i < 500; i++) {
      w.changed();
      await clock.advance(5);
    }
    expect(writes).toBe(0);
    await clock.advance(2999 - 5);
    expect(writes).toBe(0);
    await clock.advance(1);
    expect(writes).toBe(1);
    await clock.advance(60_000);
    expect(writes).toBe(1);
    expect(w.pending).toBe(false);
  });

  test("changes separated by more than the quiet period write once each", async () => {
    const clock = new FakeClock();
    let writes = 0;
    const w = new QuietPeriodWriter(() => void writes++, 1000, clock);
    w.changed();
    await clock.advance(1000);
    w.changed();
    await clock.advance(1000);
    expect(writes).toBe(2);
  });

  test("a change during a write causes exactly one follow-up write, after the running one finishes", async () => {
    const clock = new FakeClock();
    const g = gatedWrite();
    const w = new QuietPeriodWriter(g.write, 1000, clock);
    w.changed();
    await clock.advance(1000);
    expect(g.calls).toEqual([1]);
    expect(w.writing).toBe(true);
    // Many changes while writing; their quiet period ends while the write still runs.
    for (let i = 0; i < 50; i++) w.changed();
    await clock.advance(5000);
    expect(g.calls).toEqual([1]); // never two writes at once
    g.finish();
    await settle();
    expect(g.calls).toEqual([1, 2]);
    g.finish();
    await clock.advance(10_000);
    expect(g.calls).toEqual([1, 2]);
    expect(w.writing).toBe(false);
  });

  test("changes during a write that are not yet quiet when it finishes wait for their quiet period", async () => {
    const clock = new FakeClock();
    const g = gatedWrite();
    const w = new QuietPeriodWriter(g.write, 1000, clock);
    w.changed();
    await clock.advance(1000);
    w.changed();
    await clock.advance(200);
    g.finish();
    await settle();
    expect(g.calls).toEqual([1]);
    await clock.advance(799);
    expect(g.calls).toEqual([1]);
    await clock.advance(1);
    expect(g.calls).toEqual([1, 2]);
    g.finish();
  });

  test("flush writes pending changes now, waits for a running write, and does nothing when clean", async () => {
    const clock = new FakeClock();
    let writes = 0;
    const w = new QuietPeriodWriter(() => void writes++, 3000, clock);
    await w.flush();
    expect(writes).toBe(0);
    w.changed();
    await w.flush();
    expect(writes).toBe(1);
    expect(clock.pendingTimers).toBe(0);
    await clock.advance(10_000);
    expect(writes).toBe(1);

    const g = gatedWrite();
    const w2 = new QuietPeriodWriter(g.write, 1000, clock);
    w2.changed();
    await clock.advance(1000);
    w2.changed();
    let flushed = false;
    const f = w2.flush().then(() => (flushed = true));
    await settle();
    expect([g.calls.length, flushed]).toEqual([1, false]);
    g.finish();
    await settle();
    expect([g.calls.length, flushed]).toEqual([2, false]);
    g.finish();
    await f;
    expect([g.calls.length, flushed]).toEqual([2, true]);
  });

  test("a failing write is reported, not retried in a loop; the next change writes again", async () => {
    const clock = new FakeClock();
    const errors: string[] = [];
    let attempts = 0;
    const w = new QuietPeriodWriter(
      () => {
        attempts++;
        throw new Error(`disk full #${attempts}`);
      },
      100,
      clock,
      (e) => errors.push((e as Error).message),
    );
    w.changed();
    await clock.advance(10_000);
    expect([attempts, errors]).toEqual([1, ["disk full #1"]]);
    w.changed();
    await clock.advance(100);
    expect([attempts, errors]).toEqual([2, ["disk full #1", "disk full #2"]]);
  });

  test("dispose drops pending changes and ignores later ones", async () => {
    const clock = new FakeClock();
    let writes = 0;
    const w = new QuietPeriodWriter(() => void writes++, 100, clock);
    w.changed();
    w.dispose();
    w.changed();
    await clock.advance(1000);
    await w.flush();
    expect([writes, clock.pendingTimers]).toEqual([0, 0]);
  });

  test("a prompt change (the first complete build) is written at once; changes right after ride along", async () => {
    const clock = new FakeClock();
    let writes = 0;
    const w = new QuietPeriodWriter(() => void writes++, 3000, clock);
    w.changedPromptly();
    w.changed(); // an edit in the same instant does not postpone the first save to the quiet period
    expect(writes).toBe(0);
    await clock.advance(0);
    expect([writes, w.pending, clock.pendingTimers]).toEqual([1, false, 0]);
    // Back to quiet-period merging for what follows.
    w.changed();
    await clock.advance(2999);
    expect(writes).toBe(1);
    await clock.advance(1);
    expect(writes).toBe(2);
  });

  test("a prompt change during a running write causes one follow-up as soon as that write ends", async () => {
    const clock = new FakeClock();
    const g = gatedWrite();
    const w = new QuietPeriodWriter(g.write, 1000, clock);
    w.changed();
    await clock.advance(1000);
    w.changedPromptly();
    await clock.advance(0);
    expect(g.calls).toEqual([1]);
    g.finish();
    await settle();
    expect(g.calls).toEqual([1, 2]);
    g.finish();
    await clock.advance(10_000);
    expect(g.calls).toEqual([1, 2]);
  });

  test("the default quiet period is three seconds", () => {
    expect(new QuietPeriodWriter(() => {}).quietMs).toBe(3000);
  });
});

describe("QuietPeriodWriter on real timers", () => {
  test("writes once after the quiet period", async () => {
    let writes = 0;
    const w = new QuietPeriodWriter(() => void writes++, 10);
    w.changed();
    w.changed();
    await new Promise((r) => setTimeout(r, 60));
    expect(writes).toBe(1);
    w.dispose();
  });
});
