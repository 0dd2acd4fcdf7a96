// Waiting for a snapshot that a cold run may still be writing after it exited (src/cli/detach.ts): the
// benchmarks that time a cold run let its save end before the next run, so no two share the machine.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Blocks until `<home>/snapshots` holds a snapshot and no writer's lock (polled every 2 ms), and returns
 * `performance.now()` then; throws after `maxMs` (default 30 s).
 */
export function waitForSnapshot(home: string, maxMs = 30_000): number {
  const dir = join(home, "snapshots");
  const until = performance.now() + maxMs;
  for (;;) {
    const names = existsSync(dir) ? readdirSync(dir) : [];
    if (names.some((n) => n.endsWith(".msgpack")) && !names.some((n) => n.endsWith(".lock"))) {
      return performance.now();
    }
    if (performance.now() > until) throw new Error(`no snapshot was saved in ${home} within ${maxMs} ms`);
    Atomics.wait(pause, 0, 0, 2);
  }
}
