/**
 * `consistency: "strict"` by the watcher's health: a trusted watcher → only the files it named are
 * stat'ed; a lost-events (overflow) report, a failed watcher or no watcher → the whole tree is scanned;
 * and the full check after a trusted answer (at most every few seconds) catches what a watcher missed and
 * stops trusting it. Watchers are injected (no OS timing), except in the one test of the real watcher.
 */
import { describe, expect, spyOn, test } from "bun:test";
import * as fs from "node:fs";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resolveConfig } from "../../src/workspace/config.ts";
import { IndexService, type ServiceOptions, type WatchFolder } from "../../src/workspace/service.ts";
import { copySample } from "./sample-copy.ts";
import { tempDirs } from "../temp-dirs.ts";

const TMP = tempDirs();

/** A watcher the test drives: `emit(name)` reports a change below the root, `emit(null)` lost events. */
function fakeWatcher() {
  const roots: { change(name: string | null): void; error(e: Error): void }[] = [];
  const watchFolder: WatchFolder = (_root, events) => {
    roots.push(events);
    return { close() {} };
  };
  return {
    watchFolder,
    emit: (name: string | null) => roots[0].change(name),
    fail: () => roots[0].error(new Error("the watch broke")),
  };
}

async function serviceOn(options: ServiceOptions) {
  const { dir, home } = copySample(TMP, "ra3-strict-");
  const cfg = resolveConfig({ project: dir, sdk: "", schema: null, home });
  if ("envError" in cfg) throw new Error(cfg.envError);
  const logs: string[] = [];
  const service = new IndexService(cfg, { debounceMs: 60_000, log: (l) => logs.push(l), ...options });
  await service.start();
  const weapons = join(dir, "Data", "Includes", "Weapons.xml");
  const text = readFileSync(weapons, "utf8");
  const rename = (id: string) => writeFileSync(weapons, text.replace('id="AthenaSplash"', `id="${id}"`));
  return { dir, service, logs, weapons, rename };
}

/** The project files `fn` stat'ed (any number of times each). */
async function statted<T>(dir: string, fn: () => Promise<T>): Promise<{ value: T; files: string[] }> {
  const spy = spyOn(fs, "statSync");
  let calls: unknown[][];
  let value: T;
  try {
    value = await fn();
  } finally {
    calls = [...spy.mock.calls];
    spy.mockRestore();
  }
  const files = new Set(calls.map(([p]) => String(p)).filter((p) => p.startsWith(dir + "/") && p.includes(".")));
  return { value, files: [...files].map((p) => p.slice(dir.length + 1)).sort() };
}

describe("strict consistency by the watcher's health", () => {
  test("watcher healthy: only the file it named is stat'ed, and the answer has the edit", async () => {
    const w = fakeWatcher();
    const { dir, service, rename } = await serviceOn({ watch: true, watchFolder: w.watchFolder });
    rename("StrictWatched");
    w.emit(join("Data", "Includes", "Weapons.xml"));
    const { value, files } = await statted(dir, () => service.strict(10_000));
    expect([value?.scope, value?.changed.map((p) => p.slice(dir.length + 1))]).toEqual([
      "watched",
      ["Data/Includes/Weapons.xml"],
    ]);
    expect(files).toEqual(["Data/Includes/Weapons.xml"]);
    expect(service.linked!.findAssets("StrictWatched").length).toBe(1);
    await service.dispose();
  });

  test("watcher overflowed (an event without a name): the whole tree is scanned, then it is trusted again", async () => {
    const w = fakeWatcher();
    const { dir, service, rename } = await serviceOn({ watch: true, watchFolder: w.watchFolder });
    rename("StrictAfterOverflow");
    w.emit(null);
    const { value, files } = await statted(dir, () => service.strict(10_000));
    expect(value?.scope).toBe("full");
    expect(files.length).toBeGreaterThan(10);
    expect(files).toContain("Data/Mod.xml");
    expect(service.linked!.findAssets("StrictAfterOverflow").length).toBe(1);
    expect((await service.strict(10_000))?.scope).toBe("watched");
    await service.dispose();
  });

  test("watcher failed: every strict call scans the whole tree", async () => {
    const w = fakeWatcher();
    const { service, rename, logs } = await serviceOn({ watch: true, watchFolder: w.watchFolder });
    w.fail();
    rename("StrictAfterFailure"); // no event: the watcher is gone
    expect((await service.strict(10_000))?.scope).toBe("full");
    expect(service.linked!.findAssets("StrictAfterFailure").length).toBe(1);
    expect((await service.strict(10_000))?.scope).toBe("full");
    expect(logs.some((l) => l.startsWith("file watching stopped for"))).toBe(true);
    await service.dispose();
  });

  test("watcher not running (watch off, or it could not start): the whole tree is scanned", async () => {
    const off = await serviceOn({ watch: false });
    off.rename("StrictNoWatcher");
    expect((await off.service.strict(10_000))?.scope).toBe("full");
    expect(off.service.linked!.findAssets("StrictNoWatcher").length).toBe(1);
    await off.service.dispose();

    const broken = await serviceOn({
      watch: true,
      watchFolder: () => {
        throw new Error("ENOSPC");
      },
    });
    broken.rename("StrictWatchNeverStarted");
    expect((await broken.service.strict(10_000))?.scope).toBe("full");
    expect(broken.service.linked!.findAssets("StrictWatchNeverStarted").length).toBe(1);
    expect(broken.logs.some((l) => l.startsWith("cannot watch") && l.includes("ENOSPC"))).toBe(true);
    await broken.service.dispose();
  });

  test("a change the watcher missed: the full check after the answer finds it and stops trusting the watcher", async () => {
    const w = fakeWatcher();
    const { service, rename, logs } = await serviceOn({ watch: true, watchFolder: w.watchFolder, fullScanEveryMs: 0 });
    rename("MissedByTheWatcher"); // written, but never reported
    const first = await service.strict(10_000);
    expect(first?.scope).toBe("watched");
    expect(first?.changed).toEqual([]);
    // The check runs after the answer, as the next job: the following strict call waits for it.
    const second = await service.strict(10_000);
    expect(service.linked!.findAssets("MissedByTheWatcher").length).toBe(1);
    expect(second?.scope).toBe("full");
    expect(logs.filter((l) => l.startsWith("the file watcher missed 1 change(s)"))).toHaveLength(1);
    await service.dispose();
  });

  test("with the default period, trusted answers do not scan the tree in between", async () => {
    const w = fakeWatcher();
    const { dir, service } = await serviceOn({ watch: true, watchFolder: w.watchFolder });
    const { value, files } = await statted(dir, async () => {
      const a = await service.strict(10_000);
      const b = await service.strict(10_000);
      return [a?.scope, b?.scope];
    });
    expect([value, files]).toEqual([["watched", "watched"], []]);
    await service.dispose();
  });

  test("the real watcher: once it reported an edit, a strict answer has it and stats only that file", async () => {
    const { dir, service, rename } = await serviceOn({ watch: true });
    for (let i = 0; i < 3; i++) {
      rename(`RealWatcher${i}`);
      // Delivery takes a fraction of a millisecond, on another thread: wait until the event is in.
      const t = Date.now();
      while (service.view().lifecycle.state !== "stale" && Date.now() - t < 10_000) {
        await new Promise((r) => setTimeout(r, 1));
      }
      const { value, files } = await statted(dir, () => service.strict(10_000));
      expect([value?.scope, files]).toEqual(["watched", ["Data/Includes/Weapons.xml"]]);
      expect(service.linked!.findAssets(`RealWatcher${i}`).length).toBe(1);
    }
    await service.dispose();
  });
});
