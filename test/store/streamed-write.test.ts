// The snapshot written in pieces straight to its temporary file (no whole-snapshot buffer): the same
// bytes as the one-buffer encoder for any piece size, and a failure mid-write (a piece, a pause) that
// leaves the previous snapshot as it was and no temporary file behind.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { type ByteSink, ByteWriter } from "../../src/store/bytes.ts";
import { decodeSnapshot, encodeSnapshot, type Snapshot } from "../../src/store/codec.ts";
import { isLowerCaseOf } from "../../src/store/link-codec.ts";
import { acquireLock, isLockBusy } from "../../src/store/lock.ts";
import { SnapshotStore } from "../../src/store/snapshot-store.ts";
import { type FileSystemPort, nodeFileSystem } from "../../src/disk/port.ts";
import { resolveConfig } from "../../src/workspace/config.ts";
import { saveSnapshot, schemaKeyOf } from "../../src/workspace/snapshots.ts";
import { Workspace } from "../../src/workspace/workspace.ts";
import { TOOL_VERSION } from "../../src/version.ts";
import { copySample } from "../workspace/sample-copy.ts";
import { tempDirs } from "../temp-dirs.ts";

const TMP = tempDirs();

/** Bytes that look like nothing in particular (a fixed sequence, so a failure repeats). */
function noise(n: number, seed = 7): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

/** A sink collecting what a chunked writer hands on, counting the pieces and the patches. */
class CollectingSink implements ByteSink {
  bytes = new Uint8Array(0);
  appends = 0;
  patches = 0;
  append(b: Uint8Array): void {
    const next = new Uint8Array(this.bytes.length + b.length);
    next.set(this.bytes);
    next.set(b, this.bytes.length);
    this.bytes = next;
    this.appends++;
  }
  writeAt(at: number, b: Uint8Array): void {
    if (at + b.length > this.bytes.length) throw new Error(`patch at ${at} past the end ${this.bytes.length}`);
    this.bytes.set(b, at);
    this.patches++;
  }
}

describe("the pieces of a streamed write", () => {
  test("strings are written as TextEncoder's UTF-8, ASCII byte by byte and the rest after the first non-ASCII", () => {
    const strings = ["", "HugeWeapon0001", "Data\\Mod.xml", "é", "abcé✓d", "x😀y", "\u007f\u0080", "日本語 text"];
    const w = new ByteWriter(4);
    const counts = strings.map((t) => w.utf8(t));
    const expected = new TextEncoder().encode(strings.join(""));
    expect(w.result()).toEqual(expected);
    expect(counts).toEqual(strings.map((t) => new TextEncoder().encode(t).length));
  });

  test("a by-id key is checked as the id lower-cased, without a copy for ASCII ids", () => {
    const cases: [string, string, boolean][] = [
      ["hugeweapon0001", "HugeWeapon0001", true],
      ["hugeweapon0001", "HugeWeapon0002", false],
      ["hugeweapon", "HugeWeapon0001", false],
      ["a_b-c.d", "A_B-C.D", true],
      ["@[`{", "@[`{", true], // the characters next to A–Z and a–z are not letters
      ["ä", "Ä", true],
      ["i\u0307a", "\u0130A", true], // İ lower-cases to two characters
      ["ia", "\u0130A", false],
      ["σς", "ΣΣ", true], // a final sigma: toLowerCase gives "σς", not "σσ"
      ["σσ", "ΣΣ", false],
    ];
    for (const [key, id, want] of cases) {
      expect([key, id, isLowerCaseOf(key, id)]).toEqual([key, id, id.toLowerCase() === key]);
      expect([key, id, isLowerCaseOf(key, id)]).toEqual([key, id, want]);
    }
  });

  test("a writer with a sink hands on the bytes of one without, patches of handed-on bytes included", () => {
    const write = (w: ByteWriter) => {
      const at: number[] = [];
      for (let i = 0; i < 500; i++) {
        w.uint(i * 37);
        if (i % 50 === 0) {
          at.push(w.length);
          w.u32(0);
        }
        if (i % 7 === 0) w.utf8(`string ${i} é ✓`);
        if (i % 11 === 0) w.float(i / 3);
        if (i % 97 === 0) w.bytes(noise(40, i + 1));
      }
      for (const [k, p] of at.entries()) w.setU32(p, 0xdead0000 + k);
      return at;
    };
    const plain = new ByteWriter(8);
    write(plain);
    const expected = plain.result().slice();
    for (const size of [5, 16, 64, 1000]) {
      const sink = new CollectingSink();
      const w = new ByteWriter(size, sink);
      const at = write(w);
      const handedOn = sink.bytes.length;
      w.flush();
      expect([w.length, sink.bytes]).toEqual([expected.length, expected]);
      expect(sink.appends).toBeGreaterThan(1);
      // A placeholder in a chunk already handed on is patched in the sink, the others in the buffer.
      expect(sink.patches).toBe(at.filter((p) => p < handedOn).length);
      if (size <= 64) expect(sink.patches).toBe(10);
    }
    expect(() => new ByteWriter(16, new CollectingSink()).finish()).toThrow(
      "snapshot encoder: a writer with a sink has no bytes to finish; flush it",
    );
  });
});

async function linkedSnapshot(): Promise<{ snapshot: Snapshot; dir: string; home: string }> {
  const { dir, home } = copySample(TMP, "ra3-streamed-");
  const cfg = resolveConfig({ project: dir, sdk: "", schema: null, home });
  if ("envError" in cfg) throw new Error(cfg.envError);
  const ws = new Workspace(cfg);
  await ws.build();
  ws.close();
  const store = new SnapshotStore(home, dir);
  expect(saveSnapshot(ws, store, schemaKeyOf(ws.schema)).saved).toBe(true);
  const loaded = store.load({ projectDir: dir, toolVersion: TOOL_VERSION });
  if (!loaded.ok) throw new Error(loaded.message);
  expect(loaded.snapshot.linked?.parts.assets.length).toBe(28);
  return { snapshot: loaded.snapshot, dir, home };
}

/** The real file system, except that `openNew` files fail on their `failAt`-th append with ENOSPC. */
function diskFullAt(failAt: number): { fs: FileSystemPort; appends: () => number } {
  const real = nodeFileSystem();
  let appends = 0;
  return {
    appends: () => appends,
    fs: {
      ...real,
      openNew(path, options) {
        const file = real.openNew(path, options);
        return {
          ...file,
          append(bytes) {
            if (++appends === failAt) {
              throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
            }
            file.append(bytes);
          },
        };
      },
    },
  };
}

describe("a snapshot written in pieces", () => {
  test("the file holds exactly the one-buffer encoder's bytes, whatever the piece size", async () => {
    const { snapshot, home, dir } = await linkedSnapshot();
    const expected = encodeSnapshot(snapshot);
    const first = new SnapshotStore(home, dir);
    expect(readFileSync(first.path)).toEqual(Buffer.from(expected)); // the build's own save, 1 MB pieces
    for (const chunkBytes of [16, 333, 4096]) {
      const store = new SnapshotStore(`${home}-${chunkBytes}`, dir, { chunkBytes });
      const r = store.save(snapshot);
      expect(r.saved && r.size).toBe(expected.length);
      expect(readFileSync(store.path)).toEqual(Buffer.from(expected));
      expect(store.meta()?.size).toBe(expected.length);
    }
    expect(expected.length).toBeGreaterThan(4096 * 2);
  });

  test("a write failing half-way (disk full) leaves the old snapshot, its meta file and no temporary file", async () => {
    const { snapshot, home, dir } = await linkedSnapshot();
    const store = new SnapshotStore(home, dir);
    const before = readFileSync(store.path);
    const metaBefore = readFileSync(store.metaPath, "utf8");
    const full = diskFullAt(3);
    const failing = new SnapshotStore(home, dir, { fs: full.fs, chunkBytes: 1024 });
    const changed = { ...snapshot, buildId: snapshot.buildId + 1, stale: !snapshot.stale };
    const r = failing.save(changed);
    expect(r).toEqual({
      saved: false,
      reason: "error",
      message: `could not write the snapshot ${store.path} (ENOSPC: ENOSPC: no space left on device, write)`,
    });
    expect(full.appends()).toBe(3);
    expect(readFileSync(store.path)).toEqual(before);
    expect(readFileSync(store.metaPath, "utf8")).toBe(metaBefore);
    expect(readdirSync(dirname(store.path)).sort()).toEqual(
      [store.path, store.metaPath].map((p) => p.slice(dirname(store.path).length + 1)).sort(),
    );
    const loaded = store.load({ projectDir: dir, toolVersion: TOOL_VERSION });
    expect(loaded.ok && loaded.snapshot.buildId).toBe(snapshot.buildId);
    // The lock was released: the next save goes through.
    expect(new SnapshotStore(home, dir).save(changed).saved).toBe(true);
    const after = decodeSnapshot(readFileSync(store.path), { projectDir: dir, toolVersion: TOOL_VERSION });
    expect(after.ok && after.snapshot.buildId).toBe(snapshot.buildId + 1);
  });

  test("a save in steps that outlasts the stale period re-dates its lock, so no one takes it over", async () => {
    const { snapshot, home, dir } = await linkedSnapshot();
    const staleLockMs = 600;
    const store = new SnapshotStore(home, dir, { chunkBytes: 512, staleLockMs });
    const lockPath = store.path + ".lock";
    const dates: string[] = [];
    const others: string[] = [];
    let pauses = 0;
    const saved = await store.saveInSteps({ ...snapshot, buildId: 99 }, async () => {
      if (++pauses > 3) return;
      // Each pause is longer than the refresh period (a third of the stale one), two of them longer than
      // the stale period: without refreshes the second check finds the lock stale and takes it.
      await new Promise((r) => setTimeout(r, (staleLockMs * 2) / 3));
      dates.push(JSON.parse(readFileSync(lockPath, "utf8")).createdAt);
      const other = acquireLock(lockPath, { staleMs: staleLockMs, pid: 999_999, isAlive: () => true });
      others.push(isLockBusy(other) ? "busy" : "taken");
      if (!isLockBusy(other)) other.release();
    });
    expect(saved.saved).toBe(true);
    expect(others.length).toBeGreaterThanOrEqual(2);
    expect([...new Set(others)]).toEqual(["busy"]);
    expect(new Set(dates).size).toBeGreaterThan(1);
    expect(existsSync(lockPath)).toBe(false);
  });

  test("a pause that fails mid-write (a server shutting down) ends the write the same way", async () => {
    const { snapshot, home, dir } = await linkedSnapshot();
    const store = new SnapshotStore(home, dir, { chunkBytes: 512 });
    const before = readFileSync(store.path);
    let pauses = 0;
    const saving = store.saveInSteps({ ...snapshot, buildId: 99 }, () => {
      // Fail once the temporary file exists and holds a few pieces.
      if (++pauses < 2) return Promise.resolve();
      const temp = readdirSync(dirname(store.path)).filter((n) => n.endsWith(".ra3tmp"));
      expect(temp.length).toBe(1);
      return Promise.reject(new Error("server closing"));
    });
    await expect(saving).rejects.toThrow("server closing");
    expect(readFileSync(store.path)).toEqual(before);
    expect(readdirSync(dirname(store.path)).filter((n) => n.endsWith(".ra3tmp") || n.endsWith(".lock"))).toEqual([]);
  });
});
