/**
 * `consistency: "strict"` by the watcher's health: a trusted watcher → no folder is listed, the indexed
 * files and those it named are stat'ed (an edit is seen even before its event arrives); a lost-events
 * (overflow) report, a failed watcher or no watcher → the whole tree is scanned; and the full check after
 * a trusted answer (at most every few seconds) finds a new file the watcher never named and stops
 * trusting it. Watchers are injected (no OS timing), except in the one test of the real watcher.
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

/**
 * What `fn` did to the project: the files it stat'ed (`stat` or `lstat`, how often each), the paths whose
 * real path it asked (the confinement's check) and the folders it listed.
 */
async function touched<T>(
  dir: string,
  fn: () => Promise<T>,
): Promise<{ value: T; statted: Map<string, number>; realPaths: Map<string, number>; listed: string[] }> {
  const stat = spyOn(fs, "statSync");
  const lstat = spyOn(fs, "lstatSync");
  const realpath = spyOn(fs, "realpathSync");
  const readdir = spyOn(fs, "readdirSync");
  let stats: unknown[][];
  let reals: unknown[][];
  let lists: unknown[][];
  let value: T;
  try {
    value = await fn();
  } finally {
    stats = [...stat.mock.calls, ...lstat.mock.calls];
    reals = [...realpath.mock.calls];
    lists = [...readdir.mock.calls];
    for (const spy of [stat, lstat, realpath, readdir]) spy.mockRestore();
  }
  const inside = (p: unknown) => String(p) === dir || String(p).startsWith(dir + "/");
  const count = (calls: unknown[][]) => {
    const out = new Map<string, number>();
    for (const [p] of calls) {
      if (inside(p)) out.set(String(p).slice(dir.length + 1), (out.get(String(p).slice(dir.length + 1)) ?? 0) + 1);
    }
    return out;
  };
  return {
    value,
    statted: count(stats),
    realPaths: count(reals),
    listed: lists.map(([p]) => String(p)).filter(inside),
  };
}

/** The indexed files of the service, relative to `dir`. */
function indexedFiles(service: IndexService, dir: string): string[] {
  return [...service.ws.core.values()].map((f) => f.path.slice(dir.length + 1)).sort();
}

describe("strict consistency by the watcher's health", () => {
  test("watcher healthy: no folder is listed, each indexed file is stat'ed once, and the answer has the edit", async () => {
    const w = fakeWatcher();
    const { dir, service, rename } = await serviceOn({ watch: true, watchFolder: w.watchFolder });
    rename("StrictWatched");
    w.emit(join("Data", "Includes", "Weapons.xml"));
    const { value, statted, realPaths, listed } = await touched(dir, () => service.strict(10_000));
    expect([value?.scope, value?.changed.map((p) => p.slice(dir.length + 1))]).toEqual([
      "watched",
      ["Data/Includes/Weapons.xml"],
    ]);
    expect(listed).toEqual([]);
    expect([...statted.keys()].sort()).toEqual(indexedFiles(service, dir));
    expect([...statted.values()].every((n) => n === 1)).toBe(true);
    // The confinement's check of the known files costs a real path per folder, not per file.
    const folders = new Set(indexedFiles(service, dir).map((p) => p.slice(0, p.lastIndexOf("/"))));
    expect([...realPaths.keys()].sort()).toEqual([...folders, "Data/Includes/Weapons.xml"].sort());
    expect([...realPaths.values()].every((n) => n === 1)).toBe(true);
    expect(service.linked!.findAssets("StrictWatched").length).toBe(1);
    await service.dispose();
  });

  test("watcher healthy but its event not delivered yet: the edit of an indexed file is still in the answer", async () => {
    const w = fakeWatcher();
    const { service, rename } = await serviceOn({ watch: true, watchFolder: w.watchFolder });
    rename("StrictBeforeTheEvent"); // no event: as when the watcher thread has not caught up
    const r = await service.strict(10_000);
    expect(r?.scope).toBe("watched");
    expect(service.linked!.findAssets("StrictBeforeTheEvent").length).toBe(1);
    await service.dispose();
  });

  test("watcher healthy, no events: an indexed file deleted is forgotten, an unchanged tree is not read again", async () => {
    const w = fakeWatcher();
    const { dir, service, weapons } = await serviceOn({ watch: true, watchFolder: w.watchFolder });
    const read = spyOn(fs, "readFileSync");
    let quiet: Awaited<ReturnType<IndexService["strict"]>>;
    try {
      quiet = await service.strict(10_000);
    } finally {
      read.mockRestore();
    }
    expect([quiet?.scope, quiet?.changed, quiet?.deleted]).toEqual(["watched", [], []]);
    expect(read.mock.calls.filter(([p]) => String(p).startsWith(dir + "/"))).toEqual([]);
    const before = indexedFiles(service, dir);
    fs.rmSync(weapons); // no event: as when the watcher thread has not caught up
    const r = await service.strict(10_000);
    expect([r?.scope, r?.changed, r?.deleted.map((p) => p.slice(dir.length + 1))]).toEqual([
      "watched",
      [],
      ["Data/Includes/Weapons.xml"],
    ]);
    expect(indexedFiles(service, dir)).toEqual(before.filter((p) => p !== "Data/Includes/Weapons.xml"));
    expect(service.linked!.findAssets("AthenaSplash").length).toBe(0);
    await service.dispose();
  });

  test("watcher healthy: a new file it names is indexed; only its folder is listed again", async () => {
    const w = fakeWatcher();
    const { dir, service } = await serviceOn({ watch: true, watchFolder: w.watchFolder });
    writeFileSync(
      join(dir, "Data", "Loose.xml"),
      '<?xml version="1.0"?>\n<AssetDeclaration xmlns="uri:ea.com:eala:asset">\n\t<WeaponTemplate id="LooseWeapon" />\n</AssetDeclaration>\n',
    );
    w.emit(join("Data", "Loose.xml"));
    const { value, listed } = await touched(dir, () => service.strict(10_000));
    // Only the folder that gained a file is listed again (the include walk resolves names in it).
    expect([value?.scope, listed]).toEqual(["watched", [join(dir, "Data")]]);
    expect(service.linked!.findAssets("LooseWeapon").length).toBe(1);
    await service.dispose();
  });

  test("watcher overflowed (an event without a name): the whole tree is scanned, then it is trusted again", async () => {
    const w = fakeWatcher();
    const { dir, service, rename } = await serviceOn({ watch: true, watchFolder: w.watchFolder });
    rename("StrictAfterOverflow");
    w.emit(null);
    const { value, listed } = await touched(dir, () => service.strict(10_000));
    expect(value?.scope).toBe("full");
    expect(listed).toContain(join(dir, "Data"));
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

  test("a new file the watcher never named: the full check after the answer finds it and stops trusting the watcher", async () => {
    const w = fakeWatcher();
    const { dir, service, logs } = await serviceOn({
      watch: true,
      watchFolder: w.watchFolder,
      fullScanEveryMs: 0,
      checkIdleMs: 0,
    });
    writeFileSync(
      join(dir, "Data", "Unreported.xml"),
      '<?xml version="1.0"?>\n<AssetDeclaration xmlns="uri:ea.com:eala:asset">\n\t<WeaponTemplate id="Unreported" />\n</AssetDeclaration>\n',
    );
    const first = await service.strict(10_000);
    expect([first?.scope, first?.changed]).toEqual(["watched", []]);
    // The check runs after the answer, as the next job: the following strict call waits for it.
    await service.strict(10_000);
    expect(service.linked!.findAssets("Unreported").length).toBe(1);
    // Its verdict waits a while (here none) for the watcher to name the file.
    await until(() => logs.some((l) => l.startsWith("the file watcher missed")));
    expect((await service.strict(10_000))?.scope).toBe("full");
    expect(logs.filter((l) => l.startsWith("the file watcher missed 1 change(s)"))).toHaveLength(1);
    await service.dispose();
  });

  test("a change the check's scan finds before the watcher names it is not a miss: the watcher stays trusted", async () => {
    const w = fakeWatcher();
    const { dir, service, logs } = await serviceOn({
      watch: true,
      watchFolder: w.watchFolder,
      fullScanEveryMs: 0,
      checkGraceMs: 300,
      checkIdleMs: 0,
    });
    writeFileSync(
      join(dir, "Data", "Late.xml"),
      '<?xml version="1.0"?>\n<AssetDeclaration xmlns="uri:ea.com:eala:asset">\n\t<WeaponTemplate id="LateEvent" />\n</AssetDeclaration>\n',
    );
    expect((await service.strict(10_000))?.scope).toBe("watched"); // the check is the next job
    await service.strict(10_000); // waits for the check, which found the file: its event is late
    expect(service.linked!.findAssets("LateEvent").length).toBe(1);
    w.emit(join("Data", "Late.xml")); // within the grace period
    await new Promise((r) => setTimeout(r, 400));
    expect((await service.strict(10_000))?.scope).toBe("watched");
    expect(logs.filter((l) => l.startsWith("the file watcher missed"))).toEqual([]);
    await service.dispose();
  });

  test("the full check waits until no strict call came for a while: answers asked in a row list no folder", async () => {
    const w = fakeWatcher();
    const { dir, service } = await serviceOn({
      watch: true,
      watchFolder: w.watchFolder,
      fullScanEveryMs: 0,
      checkIdleMs: 200,
    });
    const { value, listed } = await touched(dir, async () => {
      const scopes: string[] = [];
      for (let i = 0; i < 5; i++) scopes.push(String((await service.strict(10_000))?.scope));
      return scopes;
    });
    expect([value, listed]).toEqual([["watched", "watched", "watched", "watched", "watched"], []]);
    // Once idle, the check runs (a scan lists the project's folders).
    const idle = await touched(dir, () => new Promise((r) => setTimeout(r, 600)));
    expect(idle.listed).toContain(join(dir, "Data"));
    await service.dispose();
  });

  test("with the default period, trusted answers list no folder in between", async () => {
    const w = fakeWatcher();
    const { dir, service } = await serviceOn({ watch: true, watchFolder: w.watchFolder });
    const { value, listed } = await touched(dir, async () => {
      const a = await service.strict(10_000);
      const b = await service.strict(10_000);
      return [a?.scope, b?.scope];
    });
    expect([value, listed]).toEqual([["watched", "watched"], []]);
    await service.dispose();
  });

  test("the real watcher: an edit written just before the call is in the strict answer", async () => {
    const { service, rename } = await serviceOn({ watch: true });
    for (let i = 0; i < 5; i++) {
      rename(`RealWatcher${i}`);
      const r = await service.strict(10_000);
      expect([r?.scope, service.linked!.findAssets(`RealWatcher${i}`).length]).toEqual([BARRIER_SCOPE, 1]);
    }
    await service.dispose();
  });

  test("the real watcher and its barrier: files written and asked for at once, many times, are all in the answers", async () => {
    // No stat of the files the watcher did not name: each answer is right only if every event of the
    // writes before the call was delivered first (the barrier). Several files per step, in two folders,
    // new files too, so that the events of one step come in more than one batch.
    const { dir, service } = await serviceOn({ watch: true });
    const files = [
      join(dir, "Data", "Includes", "Weapons.xml"),
      join(dir, "Data", "Includes", "Allied Units", "AthenaCannon.xml"),
      join(dir, "Data", "Includes", "CommandSets.xml"),
    ];
    const texts = files.map((f) => readFileSync(f, "utf8"));
    const firstId = texts.map((t) => /\bid="([^"]+)"/.exec(t)![1]);
    const wrong: string[] = [];
    const scopes = new Set<string>();
    const writes = files.map(() => 0);
    for (let step = 0; step < 200; step++) {
      const expected: string[] = [];
      for (let k = 0; k <= step % files.length; k++) {
        // Two writes of a file within one tick of the file system's clock keep its mtime: its size
        // changes from one write to the next, so that the stamp differs.
        const id = `Race${step}x${k}${"_".repeat(writes[k]++ % 2)}`;
        writeFileSync(files[k], texts[k].replace(`id="${firstId[k]}"`, `id="${id}"`));
        expected.push(id);
      }
      if (step % 5 === 0) {
        const id = `RaceNew${step}`;
        writeFileSync(
          join(dir, "Data", step % 10 === 0 ? "Includes" : "", `RaceNew${step}.xml`),
          `<?xml version="1.0"?>\n<AssetDeclaration xmlns="uri:ea.com:eala:asset">\n\t<WeaponTemplate id="${id}" />\n</AssetDeclaration>\n`,
        );
        expected.push(id);
      }
      const r = await service.strict(10_000); // asked at once, no wait after the writes
      scopes.add(String(r?.scope));
      for (const id of expected) if (service.linked!.findAssets(id).length !== 1) wrong.push(`step ${step}: ${id}`);
    }
    expect(wrong).toEqual([]);
    expect([...scopes]).toEqual([BARRIER_SCOPE]);
    await service.dispose();
  });
});

/** The scope of a strict answer with the real watcher: where it has a barrier, only what it named. */
const BARRIER_SCOPE = process.platform === "linux" ? "named" : "watched";

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
}
