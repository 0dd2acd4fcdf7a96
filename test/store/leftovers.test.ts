// No leftovers after a crash: a writer killed mid-save leaves a full-size temporary file and its lock;
// the next start (or save) removes both, and never touches what a live writer or another project owns.
import { afterAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { TEMP_SUFFIX, tempPathFor } from "../../src/disk/atomic.ts";
import { nodeFileSystem } from "../../src/disk/port.ts";
import { tempFilesOf, writerPidOf } from "../../src/store/leftovers.ts";
import { SnapshotStore } from "../../src/store/snapshot-store.ts";
import { recordsOf, SAMPLE, snapshotOf } from "./records.ts";
import { deadPid } from "./dead-pid.ts";

const CHILD = join(import.meta.dirname, "writer-child.ts");
const PROJECT = "/mods/Crashing Mod";
const root = mkdtempSync(join(tmpdir(), "ra3-leftovers-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshHome = () => join(root, `home${++n}`);
const files = recordsOf(SAMPLE, null);

const namesIn = (dir: string) => readdirSync(dir).sort();
const nameOf = (p: string) => p.slice(p.lastIndexOf("/") + 1);

/** Runs the crash child: it holds the lock and dies by SIGKILL with the complete temporary file written. */
function crashDuringSave(home: string): { signal: string | null; pid: number } {
  const r = spawnSync(process.execPath, [CHILD, "crash", home, PROJECT, "5", "0"], {
    encoding: "utf8",
    env: { ...process.env, MSGPACKR_NATIVE_ACCELERATION_DISABLED: "true" },
  });
  const temps = tempFilesOf([new SnapshotStore(home, PROJECT).path]);
  return { signal: r.signal, pid: temps[0]?.pid ?? 0 };
}

describe("temporary file names", () => {
  test("the pid is read back from every temporary name tempPathFor makes, and nothing else matches", () => {
    const target = join(root, "x", "snap.msgpack");
    expect(writerPidOf(nameOf(tempPathFor(nodeFileSystem(), target)), "snap.msgpack")).toBe(process.pid);
    expect(writerPidOf(nameOf(tempPathFor(nodeFileSystem(), target + ".lock")), "snap.msgpack.lock")).toBe(process.pid);
    // A lock's temporary file is not one of the snapshot's, and unrelated names are not temporary files.
    expect(writerPidOf(nameOf(tempPathFor(nodeFileSystem(), target + ".lock")), "snap.msgpack")).toBeNull();
    for (
      const name of [
        "snap.msgpack",
        `.snap.msgpack.12-zz${TEMP_SUFFIX}`,
        `.snap.msgpack.-ab${TEMP_SUFFIX}`,
        ".snap.msgpack.12-ab.tmp",
      ]
    ) {
      expect(writerPidOf(name, "snap.msgpack")).toBeNull();
    }
  });
});

describe("leftovers of crashed writers", () => {
  test("kill -9 during a save leaves the full-size temporary file and the lock; the next start removes both", () => {
    const home = freshHome();
    const crashed = crashDuringSave(home);
    expect(crashed.signal).toBe("SIGKILL");
    const store = new SnapshotStore(home, PROJECT);
    const dir = join(home, "snapshots");
    const left = namesIn(dir);
    expect(left.length).toBe(2);
    expect(left).toContain(nameOf(store.lockPath));
    const temp = join(dir, left.find((f) => f.endsWith(TEMP_SUFFIX))!);
    expect(statSync(temp).size).toBeGreaterThan(100_000); // the whole snapshot, never to be renamed
    expect(store.cleanLeftovers()).toEqual([temp]);
    expect(namesIn(dir)).toEqual([]); // the dead writer's lock was taken over and released
  });

  test("kill -9 during a save, then a save: it is not blocked and leaves only the snapshot and its meta", () => {
    const home = freshHome();
    expect(crashDuringSave(home).signal).toBe("SIGKILL");
    const store = new SnapshotStore(home, PROJECT);
    const r = store.save(snapshotOf(PROJECT, files));
    expect(r.saved).toBe(true);
    expect(namesIn(join(home, "snapshots"))).toEqual([nameOf(store.metaPath), nameOf(store.path)].sort());
  });

  test("a live writer's fresh temporary file is kept; the same file past the stale period is removed", () => {
    const home = freshHome();
    const store = new SnapshotStore(home, PROJECT, { staleLockMs: 60_000 });
    mkdirSync(join(home, "snapshots"), { recursive: true });
    const live = tempPathFor(nodeFileSystem(), store.path); // this process: alive
    writeFileSync(live, "half a snapshot");
    expect(store.cleanLeftovers()).toEqual([]);
    expect(namesIn(join(home, "snapshots"))).toEqual([nameOf(live)]);
    const old = new Date(Date.now() - 60_001);
    utimesSync(live, old, old); // a pid reused by a process that is not writing
    expect(store.cleanLeftovers()).toEqual([live]);
  });

  test("dead writers' temporary meta and lock files go too; another project's are left to its own store", () => {
    const home = freshHome();
    const store = new SnapshotStore(home, PROJECT);
    const other = new SnapshotStore(home, "/mods/Other Mod");
    const dir = join(home, "snapshots");
    mkdirSync(dir, { recursive: true });
    const dead = deadPid();
    const temp = (target: string) => join(dir, `.${nameOf(target)}.${dead}-0123456789ab${TEMP_SUFFIX}`);
    const mine = [temp(store.metaPath), temp(store.lockPath)];
    const theirs = temp(other.path);
    for (const p of [...mine, theirs]) writeFileSync(p, "x");
    expect([...store.cleanLeftovers()].sort()).toEqual([...mine].sort());
    expect(namesIn(dir)).toEqual([nameOf(theirs)]);
    expect(other.cleanLeftovers()).toEqual([theirs]);
  });

  test("while a live writer holds the lock nothing is removed (the holder sweeps when it saves)", () => {
    const home = freshHome();
    const store = new SnapshotStore(home, PROJECT);
    const dir = join(home, "snapshots");
    mkdirSync(dir, { recursive: true });
    const lock = JSON.stringify({
      pid: process.pid,
      hostname: hostname(),
      createdAt: new Date().toISOString(),
      token: "busy",
    });
    writeFileSync(store.lockPath, lock);
    const dead = join(dir, `.${nameOf(store.path)}.${deadPid()}-0123456789ab${TEMP_SUFFIX}`);
    writeFileSync(dead, "x");
    expect(store.cleanLeftovers()).toEqual([]);
    expect(namesIn(dir)).toEqual([nameOf(dead), nameOf(store.lockPath)].sort());
  });

  test("no snapshot folder yet: nothing to do, nothing created", () => {
    const home = freshHome();
    expect(new SnapshotStore(home, PROJECT).cleanLeftovers()).toEqual([]);
    expect(() => statSync(home)).toThrow();
  });
});
