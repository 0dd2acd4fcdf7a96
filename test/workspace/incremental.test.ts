// The live index against the disk: incremental refreshes must equal a fresh build, bad snapshots are
// rebuilt with one warning, and a burst of edits causes one or two snapshot writes, not one each.
import { describe, expect, spyOn, test } from "bun:test";
import * as fs from "node:fs";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LinkedIndex } from "../../src/index/linked.ts";
import { isStale } from "../../src/lifecycle.ts";
import { memoryIo } from "../../src/cli/io.ts";
import { run } from "../../src/cli/run.ts";
import { scanProjectFiles } from "../../src/project/scan.ts";
import { IndexService } from "../../src/workspace/service.ts";
import { saveSnapshot, schemaKeyOf, StoreSnapshotPort, warmStart } from "../../src/workspace/snapshots.ts";
import { Workspace } from "../../src/workspace/workspace.ts";
import { SnapshotStore } from "../../src/store/snapshot-store.ts";
import { copySample } from "./sample-copy.ts";
import { config } from "./fresh-build.ts";
import { tempDirs } from "../temp-dirs.ts";

const TMP = tempDirs();

/** Everything an answer can depend on, in a comparable form (paths relative, no timings). */
function canonical(l: LinkedIndex, dir: string): unknown {
  const rel = (p: string | null) => (p === null ? null : p.slice(dir.length + 1));
  return {
    files: [...l.files.values()].map((f) => ({ ...f, path: rel(f.path) })).sort((a, b) => (a.path! < b.path! ? -1 : 1)),
    assets: l.assets.map((a) =>
      `${a.type}:${a.id}@${
        rel(a.file)
      }:${a.line}:${a.column}-${a.endLine} ${a.origin} ${a.active} ${a.viaInstance} [${a.streams}]`
    ).sort(),
    sites: l.sites
      .map((s) =>
        `${s.kind} ${s.from >= 0 ? l.assets[s.from].id : "-"} ${s.value}@${
          rel(s.file)
        }:${s.line}:${s.column} ${s.status} → ${
          s.targets.map((t) => `${l.assets[t].type}:${l.assets[t].id}`).join(",")
        }`
      )
      .sort(),
    diagnostics: l.diagnostics.map((d) =>
      `${rel(d.file)}:${d.line}:${d.column} ${d.code} ${d.message.replaceAll(dir, "<mod>")}`
    ).sort(),
    defines: [...l.defines.entries()].map(([k, v]) =>
      `${k}=${v.map((d) => `${d.value}@${rel(d.file)}:${d.line}`).join("|")}`
    ).sort(),
    includes: l.includes.map((e) => `${rel(e.from)}:${e.line} ${e.source} → ${rel(e.to)}`).sort(),
  };
}

async function fresh(dir: string, home: string): Promise<LinkedIndex> {
  const ws = new Workspace(config(dir, home));
  await ws.build();
  ws.close();
  return ws.linked!;
}

describe("incremental refresh equals a fresh build", () => {
  test("edit, add, delete and rename, each applied by stamps, give exactly the index of a full build", async () => {
    const { dir, home } = copySample(TMP, "ra3-incr-");
    const ws = new Workspace(config(dir, home));
    await ws.build();
    const weapons = join(dir, "Data", "Includes", "Weapons.xml");

    // Edit: a weapon renamed and a line inserted above everything (positions shift).
    writeFileSync(
      weapons,
      readFileSync(weapons, "utf8").replace('id="AthenaSplash"', 'id="AthenaSplashRenamed"').replace(
        "<AssetDeclaration",
        "<!-- edited -->\n<AssetDeclaration",
      ),
    );
    let r = await ws.refresh();
    expect(r.changed.map((p) => p.slice(dir.length + 1))).toEqual(["Data/Includes/Weapons.xml"]);
    expect(ws.linked!.findAssets("AthenaSplashRenamed").map((a) => a.line)).toEqual([14]);
    expect(ws.linked!.sites.find((s) => s.value === "AthenaSplash")?.status).toBe("not_found");
    expect(canonical(ws.linked!, dir)).toEqual(canonical(await fresh(dir, home), dir));

    // Add: a new file included by an existing one (both appear; the include resolves now).
    mkdirSync(join(dir, "Data", "Includes", "New Stuff"));
    writeFileSync(
      join(dir, "Data", "Includes", "New Stuff", "Extra.xml"),
      `<?xml version="1.0"?>\n<AssetDeclaration xmlns="uri:ea.com:eala:asset">\n\t<WeaponTemplate id="AthenaSplash" AttackRange="5" />\n</AssetDeclaration>\n`,
    );
    const art = join(dir, "Data", "Includes", "Art.xml");
    writeFileSync(
      art,
      readFileSync(art, "utf8").replace(
        "</Includes>",
        '\t<Include type="all" source="New Stuff/Extra.xml" />\n\t</Includes>',
      ),
    );
    r = await ws.refresh();
    expect(r.changed.map((p) => p.slice(dir.length + 1)).sort()).toEqual([
      "Data/Includes/Art.xml",
      "Data/Includes/New Stuff/Extra.xml",
    ]);
    expect(ws.linked!.sites.find((s) => s.value === "AthenaSplash")?.status).toBe("resolved");
    expect(canonical(ws.linked!, dir)).toEqual(canonical(await fresh(dir, home), dir));

    // Delete: the included file goes; its include is now missing, its asset gone.
    rmSync(join(dir, "Data", "Includes", "New Stuff", "Extra.xml"));
    r = await ws.refresh();
    expect(r.deleted.map((p) => p.slice(dir.length + 1))).toEqual(["Data/Includes/New Stuff/Extra.xml"]);
    expect(ws.linked!.diagnostics.filter((d) => d.code === "include-not-found").map((d) => d.message)).toEqual([
      'include "New Stuff/Extra.xml" was not found',
      'include "Includes/NotWrittenYet.xml" was not found',
    ]);
    expect(canonical(ws.linked!, dir)).toEqual(canonical(await fresh(dir, home), dir));

    // Rename: Standalone.xml becomes the file the inactive include wanted... of another folder; the old path vanishes.
    renameSync(join(dir, "Data", "Standalone.xml"), join(dir, "Data", "Renamed Standalone.xml"));
    r = await ws.refresh();
    expect([r.changed.map((p) => p.slice(dir.length + 1)), r.deleted.map((p) => p.slice(dir.length + 1))]).toEqual([[
      "Data/Renamed Standalone.xml",
    ], ["Data/Standalone.xml"]]);
    expect(ws.linked!.findAssets("ExperimentalTank").map((a) => a.file.slice(dir.length + 1))).toEqual([
      "Data/Renamed Standalone.xml",
    ]);
    expect(canonical(ws.linked!, dir)).toEqual(canonical(await fresh(dir, home), dir));
    ws.close();
  });

  test("a cold build reads each folder of the project once (the scan's listings serve the include walk)", async () => {
    const { dir, home } = copySample(TMP, "ra3-incr-");
    const ws = new Workspace(config(dir, home));
    const readdir = spyOn(fs, "readdirSync");
    let calls: unknown[][];
    try {
      await ws.build();
    } finally {
      calls = [...readdir.mock.calls];
      readdir.mockRestore();
    }
    ws.close();
    const perFolder = new Map<string, number>();
    for (const [p] of calls) {
      const path = String(p);
      if (path === dir || path.startsWith(dir + "/")) perFolder.set(path, (perFolder.get(path) ?? 0) + 1);
    }
    expect(perFolder.size).toBeGreaterThan(5);
    expect([...perFolder].filter(([, n]) => n > 1)).toEqual([]);
  });

  test("a build in slices, yielding after every file while another build runs, keeps the read order", async () => {
    const { dir, home } = copySample(TMP, "ra3-incr-");
    // 11 ms of this thread per file: past the 10 ms slice, so the build yields after every file.
    const slow = {
      read(path: string): Uint8Array {
        const until = performance.now() + 11;
        while (performance.now() < until) { /* busy */ }
        return readFileSync(path);
      },
    };
    const sliced = new Workspace(config(dir, home), undefined, slow);
    const plain = new Workspace(config(dir, home));
    await Promise.all([sliced.build(), plain.build()]);
    sliced.close();
    plain.close();
    /** The index in its own orders (nothing sorted): files, assets, sites, include edges, diagnostics. */
    const ordered = (l: LinkedIndex) => ({
      files: [...l.files.values()].map((f) => [f.path.slice(dir.length + 1), f.state, f.kind]),
      assets: l.assets.map((a) => `${a.type}:${a.id}`),
      sites: l.sites.map((x) => `${x.value}@${x.line}`),
      includes: l.includes.map((e) => `${e.source}@${e.line}`),
      diagnostics: l.diagnostics.map((d) => `${d.code}@${d.line}`),
    });
    expect(ordered(sliced.linked!)).toEqual(ordered(plain.linked!));
    // Records come in the scan's order (sorted paths), XML before art.
    const scanned = scanProjectFiles(dir).map((f) => ({ rel: f.path.slice(dir.length + 1), art: f.kind === "w3x" }));
    expect(ordered(sliced.linked!).files.filter((f) => f[2] !== "missing").map((f) => f[0])).toEqual([
      ...scanned.filter((f) => !f.art).map((f) => f.rel),
      ...scanned.filter((f) => f.art).map((f) => f.rel),
    ]);
  });

  test("refresh with nothing changed re-reads nothing", async () => {
    const { dir, home } = copySample(TMP, "ra3-incr-");
    const ws = new Workspace(config(dir, home));
    await ws.build();
    const r = await ws.refresh();
    expect([r.changed, r.deleted]).toEqual([[], []]);
    ws.close();
  });
});

describe("snapshots", () => {
  test("a warm start stats each file once and equals a fresh build after an edit, an addition and a deletion", async () => {
    const { dir, home } = copySample(TMP, "ra3-incr-");
    const first = new Workspace(config(dir, home));
    await first.build();
    first.close();
    const store = new SnapshotStore(home, dir);
    expect(saveSnapshot(first, store, schemaKeyOf(first.schema)).saved).toBe(true);

    const weapons = join(dir, "Data", "Includes", "Weapons.xml");
    writeFileSync(weapons, readFileSync(weapons, "utf8").replace('id="AthenaSplash"', 'id="AthenaSplashWarm"'));
    writeFileSync(
      join(dir, "Data", "Added.xml"),
      '<?xml version="1.0"?>\n<AssetDeclaration xmlns="uri:ea.com:eala:asset" />\n',
    );
    rmSync(join(dir, "Data", "Standalone.xml"));

    const ws = new Workspace(config(dir, home));
    const stat = spyOn(fs, "statSync");
    let warm;
    let calls: unknown[][];
    try {
      warm = await warmStart(ws, new SnapshotStore(home, dir), schemaKeyOf(ws.schema));
    } finally {
      calls = [...stat.mock.calls];
      stat.mockRestore();
    }
    const perFile = new Map<string, number>();
    for (const [p] of calls) {
      const path = String(p);
      if (path.startsWith(dir + "/")) perFile.set(path, (perFile.get(path) ?? 0) + 1);
    }
    expect(perFile.size).toBeGreaterThan(10);
    expect([...perFile].filter(([, n]) => n > 1)).toEqual([]);
    if (!warm.warm) throw new Error(warm.reason);
    const rel = (l: readonly string[]) => l.map((p) => p.slice(dir.length + 1)).sort();
    expect([rel(warm.update.changed), rel(warm.update.deleted)]).toEqual([
      ["Data/Added.xml", "Data/Includes/Weapons.xml"],
      [],
    ]);
    expect(ws.linked!.findAssets("AthenaSplashWarm").length).toBe(1);
    expect(ws.linked!.file(join(dir, "Data", "Standalone.xml"))).toBeUndefined();
    expect(canonical(ws.linked!, dir)).toEqual(canonical(await fresh(dir, home), dir));
    ws.close();
  });

  test("served first (a server): the stored index is published before the refresh, which ends equal to a fresh build", async () => {
    const { dir, home } = copySample(TMP, "ra3-incr-");
    // A path differing from Data/Standalone.xml only in case: the scan's warning must survive a warm start.
    writeFileSync(join(dir, "Data", "standalone.xml"), readFileSync(join(dir, "Data", "Standalone.xml")));
    const first = new Workspace(config(dir, home));
    await first.build();
    first.close();
    expect(saveSnapshot(first, new SnapshotStore(home, dir), schemaKeyOf(first.schema)).saved).toBe(true);
    const weapons = join(dir, "Data", "Includes", "Weapons.xml");
    writeFileSync(weapons, readFileSync(weapons, "utf8").replace('id="AthenaSplash"', 'id="AthenaSplashWarm"'));

    const ws = new Workspace(config(dir, home));
    ws.event("build_started"); // as the service does when it starts
    let atServe = null as { state: string; stale: boolean; old: number; edited: number } | null;
    const warm = await warmStart(ws, new SnapshotStore(home, dir), schemaKeyOf(ws.schema), () => {
      atServe = {
        state: ws.lifecycle.state,
        stale: isStale(ws.lifecycle),
        old: ws.linked!.findAssets("AthenaSplash").length,
        edited: ws.linked!.findAssets("AthenaSplashWarm").length,
      };
    });
    if (!warm.warm) throw new Error(warm.reason);
    expect(atServe).toEqual({ state: "stale", stale: true, old: 1, edited: 0 });
    expect(warm.update.changed.map((p) => p.slice(dir.length + 1))).toEqual(["Data/Includes/Weapons.xml"]);
    expect([ws.lifecycle.state, ws.linked!.findAssets("AthenaSplashWarm").length]).toEqual(["ready", 1]);
    expect(canonical(ws.linked!, dir)).toEqual(canonical(await fresh(dir, home), dir));
    expect(ws.linked!.diagnostics.filter((d) => d.code === "case-collision").length).toBe(1);
    ws.close();

    // Nothing changed since: the stored link is served as soon as it is decoded (no walk, no link), and
    // the scan finds nothing to re-read, so it is published ready.
    const again = new Workspace(config(dir, home));
    expect(saveSnapshot(ws, new SnapshotStore(home, dir), schemaKeyOf(ws.schema)).saved).toBe(true);
    again.event("build_started");
    let servedEarly = false;
    const still = await warmStart(again, new SnapshotStore(home, dir), schemaKeyOf(again.schema), () => {
      servedEarly = true;
    });
    if (!still.warm) throw new Error(still.reason);
    expect([servedEarly, still.linked, still.update.changed, still.update.deleted, again.lifecycle.state]).toEqual([
      true,
      "index",
      [],
      [],
      "ready",
    ]);
    expect(canonical(again.linked!, dir)).toEqual(canonical(await fresh(dir, home), dir));
    again.close();
  });

  test("a path differing only in case from an indexed one appears: the refresh re-links to report it", async () => {
    const { dir, home } = copySample(TMP, "ra3-incr-");
    const ws = new Workspace(config(dir, home));
    await ws.build();
    const collisions = () => ws.linked!.diagnostics.filter((d) => d.code === "case-collision").length;
    expect(collisions()).toBe(0);
    // The scan sets the new file aside (no record changes), but the link must now warn about it.
    writeFileSync(join(dir, "Data", "standalone.xml"), readFileSync(join(dir, "Data", "Standalone.xml")));
    const r = await ws.refresh();
    expect([r.changed, r.deleted, collisions()]).toEqual([[], [], 1]);
    expect(canonical(ws.linked!, dir)).toEqual(canonical(await fresh(dir, home), dir));
    rmSync(join(dir, "Data", "standalone.xml"));
    await ws.refresh();
    expect(collisions()).toBe(0);
    ws.close();
  });

  test("a corrupt snapshot is reported once and rebuilt; the next run starts warm", async () => {
    const { dir, home } = copySample(TMP, "ra3-incr-");
    const go = async () => {
      const io = memoryIo(dir, { RA3_HOME: home });
      const code = await run(["index", "--json", "--no-progress"], io);
      return { code, err: io.stderr, start: JSON.parse(io.stdout).result.start.mode as string };
    };
    expect(await go()).toEqual({ code: 0, err: "", start: "cold" });
    const store = new SnapshotStore(home, dir);
    writeFileSync(store.path, readFileSync(store.path).subarray(0, 100));
    const broken = await go();
    expect([broken.code, broken.start]).toEqual([0, "cold"]);
    expect(broken.err).toMatch(/^ra3: .*; rebuilding the index\n$/);
    expect(broken.err).toContain("truncated");
    expect(await go()).toEqual({ code: 0, err: "", start: "warm" });
    // A foreign file in its place: same story.
    writeFileSync(store.path, "not a snapshot at all");
    const foreign = await go();
    expect([foreign.start, foreign.err.endsWith("; rebuilding the index\n")]).toEqual(["cold", true]);
  });

  test(
    "a burst of 500 edits while the server runs: the index follows, the snapshot is written once or twice",
    async () => {
      const { dir, home } = copySample(TMP, "ra3-incr-");
      const cfg = config(dir, home);
      let writes = 0;
      const service = new IndexService(cfg, {
        watch: true,
        debounceMs: 20,
        snapshots: (ws) => {
          const port = new StoreSnapshotPort(home, dir, schemaKeyOf(ws.schema), () => {}, 400);
          const save = port.store.saveInSteps.bind(port.store);
          port.store.saveInSteps = (s, pause) => {
            writes++;
            return save(s, pause);
          };
          return port;
        },
      });
      await service.start();
      await service.strict(10_000);
      await new Promise((r) => setTimeout(r, 600)); // the first build's own save
      writes = 0;
      const weapons = join(dir, "Data", "Includes", "Weapons.xml");
      const text = readFileSync(weapons, "utf8");
      for (let i = 0; i < 500; i++) writeFileSync(weapons, text.replace('AttackRange="40"', `AttackRange="${i}"`));
      writeFileSync(weapons, text.replace('id="AthenaSplash"', 'id="AfterTheBurst"'));
      const t = Date.now();
      while (!service.linked?.findAssets("AfterTheBurst").length && Date.now() - t < 10_000) {
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(service.linked!.findAssets("AfterTheBurst").length).toBe(1);
      await new Promise((r) => setTimeout(r, 900));
      await service.dispose();
      expect(writes).toBeGreaterThanOrEqual(1);
      expect(writes).toBeLessThanOrEqual(2);
      expect(statSync(new SnapshotStore(home, dir).path).size).toBeGreaterThan(1000);
      expect(readdirSync(join(home, "snapshots")).filter((f) => f.includes(".tmp")).length).toBe(0);
    },
    30_000,
  );
});
