// The snapshot as the CLI and the server use it: leftovers of crashed writers are removed on start, the
// server saves its first complete build promptly, and no write stores the state already on disk.
import { describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, readdirSync, statSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { memoryIo } from "../../src/cli/io.ts";
import { run } from "../../src/cli/run.ts";
import { TEMP_SUFFIX } from "../../src/disk/atomic.ts";
import { type SaveResult, SnapshotStore } from "../../src/store/snapshot-store.ts";
import { resolveConfig } from "../../src/workspace/config.ts";
import { IndexService } from "../../src/workspace/service.ts";
import { schemaKeyOf, StoreSnapshotPort } from "../../src/workspace/snapshots.ts";
import { deadPid } from "../store/dead-pid.ts";
import { copySample } from "./sample-copy.ts";
import { tempDirs } from "../temp-dirs.ts";

const TMP = tempDirs();

async function ra3(dir: string, home: string, ...args: string[]) {
  const io = memoryIo(dir, { RA3_HOME: home });
  const code = await run(["--no-progress", ...args], io);
  return { code, out: io.stdout, err: io.stderr };
}

describe("leftovers on start", () => {
  test("a dead writer's full-size temporary snapshot is removed when the next command starts", async () => {
    const { dir, home } = copySample(TMP, "ra3-snapshots-");
    expect((await ra3(dir, home, "index")).code).toBe(0);
    const store = new SnapshotStore(home, dir);
    const folder = join(home, "snapshots");
    const name = store.path.slice(folder.length + 1);
    const leftover = join(folder, `.${name}.${deadPid()}-0123456789ab${TEMP_SUFFIX}`);
    copyFileSync(store.path, leftover);
    expect(statSync(leftover).size).toBe(statSync(store.path).size);
    const r = await ra3(dir, home, "find", "AlliedAthenaCannon");
    expect([r.code, r.err]).toEqual([0, ""]);
    expect(readdirSync(folder).sort()).toEqual([store.metaPath.slice(folder.length + 1), name].sort());
  });
});

/** The snapshot file's identity: a rewrite (atomic rename) changes the inode and the mtime. */
function fileId(p: string): string {
  const st = statSync(p);
  return `${st.ino}/${st.mtimeMs}/${st.size}`;
}

/** A live service on `dir` whose store saves are recorded (quiet period one minute: only a prompt save is seen). */
function serviceOn(dir: string, home: string) {
  const cfg = resolveConfig({ project: dir, sdk: "", schema: null, home });
  if ("envError" in cfg) throw new Error(cfg.envError);
  const saves: string[] = [];
  const service = new IndexService(cfg, {
    snapshots: (ws) => {
      const port = new StoreSnapshotPort(home, dir, schemaKeyOf(ws.schema), () => {}, 60_000);
      // The server saves in steps (saveInSteps); every save of the store is counted.
      const save = port.store.saveInSteps.bind(port.store);
      port.store.saveInSteps = async (s, pause): Promise<SaveResult> => {
        const r = await save(s, pause);
        saves.push(r.saved ? "saved" : r.reason);
        return r;
      };
      return port;
    },
  });
  return { service, saves };
}

/** Lets due timers (the prompt save's zero-delay timer, set before this one) run. */
const nextTurn = () => new Promise((r) => setTimeout(r, 0));

/**
 * Turns of the event loop until `done` holds (the server's save is taken and written in steps, a few
 * turns apart), at most `turns` of them: far fewer than the quiet period's 60 s would take.
 */
async function turnsUntil(done: () => boolean, turns = 200): Promise<void> {
  for (let i = 0; i < turns && !done(); i++) await nextTurn();
}

describe("snapshots when they help", () => {
  test("ra3 index on an unchanged project does not rewrite the snapshot; after an edit it does", async () => {
    const { dir, home } = copySample(TMP, "ra3-snapshots-");
    const index = async () => JSON.parse((await ra3(dir, home, "index", "--json")).out).result;
    const first = await index();
    expect([first.start.mode, first.snapshot.saved, first.snapshot.unchanged]).toEqual(["cold", true, false]);
    const store = new SnapshotStore(home, dir);
    const before = [fileId(store.path), fileId(store.metaPath)];
    const second = await index();
    expect([second.start.mode, second.snapshot]).toEqual([
      "warm",
      { path: store.path, saved: false, unchanged: true, size: first.snapshot.size },
    ]);
    expect([fileId(store.path), fileId(store.metaPath)]).toEqual(before);
    const text = await ra3(dir, home, "index");
    expect(text.out.trimEnd().split("\n").at(-1)).toBe(
      `snapshot: ${store.path} (${(first.snapshot.size / 1000).toFixed(1)} KB, unchanged, not rewritten)`,
    );
    // Other commands on the unchanged project do not write either.
    expect((await ra3(dir, home, "find", "AlliedAthenaCannon")).code).toBe(0);
    expect([fileId(store.path), fileId(store.metaPath)]).toEqual(before);
    // A touched file is a new stamp: a new state, written.
    const later = new Date(Date.now() + 5000);
    utimesSync(join(dir, "Data", "Includes", "Weapons.xml"), later, later);
    const third = await index();
    expect([third.start.mode, third.start.changed, third.snapshot.saved]).toEqual(["warm", 1, true]);
    expect(fileId(store.path)).not.toBe(before[0]);
  });

  test("every command answers (stdout or stderr) before it writes the snapshot, and leaves it written", async () => {
    const commands: string[][] = [
      ["find", "AlliedAthenaCannon"],
      ["find", "NoSuchAsset"],
      ["list", "WeaponTemplate"],
      ["define", "ATHENA_RANGE"],
      ["include", "Includes/Weapons.xml"],
      ["file", "Data/Mod.xml"],
      ["files", "--state", "not-included"],
      ["files", "--entry", "Data/Mod.xml"],
      ["refs", "AthenaSplash"],
      ["uses", "AlliedAthenaCannon"],
      ["unreferenced"],
      ["strings", "Athena"],
      ["check"],
      ["export", "--out", "x.ra3-export.json", "--format", "json"],
      ["index"],
      ["index", "--json"],
    ];
    for (const args of commands) {
      const { dir, home } = copySample(TMP, "ra3-snapshots-");
      const store = new SnapshotStore(home, dir);
      const io = memoryIo(dir, { RA3_HOME: home });
      const seen: { text: string; snapshot: boolean }[] = [];
      const out = io.out;
      const err = io.err;
      io.out = (t) => {
        seen.push({ text: t, snapshot: existsSync(store.path) });
        out(t);
      };
      io.err = (t) => {
        seen.push({ text: t, snapshot: existsSync(store.path) });
        err(t);
      };
      await run(["--no-progress", ...args], io);
      expect(existsSync(store.path)).toBe(true);
      const first = seen[0];
      if (args.join(" ") === "index --json") {
        // Its answer reports the save, so the save comes first.
        expect([first.snapshot, JSON.parse(first.text).result.snapshot.saved]).toEqual([true, true]);
      } else if (args[0] === "index") {
        expect(seen.map((s) => s.snapshot)).toEqual([false, true]);
        expect(seen[1].text).toMatch(/^snapshot: /);
      } else {
        expect([args.join(" "), seen.length > 0 ? first.snapshot : "no output"]).toEqual([args.join(" "), false]);
      }
    }
  }, 60_000);

  test("the server saves its first complete build at once, not after the quiet period", async () => {
    const { dir, home } = copySample(TMP, "ra3-snapshots-");
    const { service, saves } = serviceOn(dir, home);
    await service.start();
    await turnsUntil(() => saves.length > 0);
    expect(saves).toEqual(["saved"]);
    expect(existsSync(new SnapshotStore(home, dir).path)).toBe(true);
    await service.dispose();
    expect(saves).toEqual(["saved"]);
  });

  // Rule: a server's first load of an XSD set leaves the model cache's write until its first index is
  // published. Fails if the load writes it at once (the folder is not empty once the schema is loaded) or
  // if the write is lost (empty after the start).
  test("the server writes the XSD set's model cache after its first build, not while loading it", async () => {
    const { dir, home } = copySample(TMP, "ra3-snapshots-");
    const { service } = serviceOn(dir, home);
    const cacheDir = join(home, "cache", "schema");
    const schema = await service.schemaLoaded();
    expect(schema.fileCount).toBeGreaterThan(0);
    expect(existsSync(cacheDir) ? readdirSync(cacheDir) : []).toEqual([]);
    await service.start();
    expect(readdirSync(cacheDir).length).toBe(1);
    await service.dispose();
  });

  test("a server restarted on an unchanged project writes nothing, and a reindex to the same state neither", async () => {
    const { dir, home } = copySample(TMP, "ra3-snapshots-");
    const first = serviceOn(dir, home);
    await first.service.start();
    await first.service.dispose();
    const path = new SnapshotStore(home, dir).path;
    const before = fileId(path);
    const { service, saves } = serviceOn(dir, home);
    await service.start();
    await turnsUntil(() => saves.length > 0);
    expect(saves).toEqual([]); // warm start, nothing re-read: no save scheduled at all
    await service.reindex();
    await service.dispose(); // flushes the reindex's pending save
    expect(saves).toEqual(["unchanged"]);
    expect(fileId(path)).toBe(before);
  });
});
