// The per-project snapshot on disk: save/load/meta, and snapshots that must be ignored, with the reason.
import { afterAll, describe, expect, test } from "bun:test";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { snapshotPathFor } from "../../src/project/home.ts";
import { acquireLock, isLockBusy } from "../../src/store/lock.ts";
import { SNAPSHOT_SCHEMA_VERSION } from "../../src/store/codec.ts";
import { snapshotStateKey, SnapshotStore } from "../../src/store/snapshot-store.ts";
import { recordsOf, SAMPLE, snapshotOf } from "./records.ts";

const root = mkdtempSync(join(tmpdir(), "ra3-store-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const files = recordsOf(SAMPLE, join(SAMPLE, "Schemas", "xsd"));
const EXPECT = { projectDir: SAMPLE, toolVersion: "9.9.9" };
let n = 0;
const freshHome = () => join(root, `home${++n}`);

describe("SnapshotStore", () => {
  test("paths: the snapshot, its meta file and its lock", () => {
    const home = freshHome();
    const store = new SnapshotStore(home, SAMPLE);
    expect(store.path).toBe(snapshotPathFor(home, SAMPLE));
    expect(store.path.endsWith(".msgpack")).toBe(true);
    expect(store.metaPath).toBe(store.path.slice(0, -".msgpack".length) + ".meta.json");
    expect(store.lockPath).toBe(store.path + ".lock");
  });

  test("a save and a load in steps pause between files and equal a save and a load at once", async () => {
    // 600 files (the sample's, repeated under other names): more than two steps of 256.
    const many = Array.from({ length: 600 }, (_, i) => ({ ...files[i % files.length], path: `${SAMPLE}/f${i}.xml` }));
    const snapshot = snapshotOf(SAMPLE, many);
    const once = new SnapshotStore(freshHome(), SAMPLE);
    const stepped = new SnapshotStore(freshHome(), SAMPLE);
    let pauses = 0;
    const r = await stepped.saveInSteps(snapshot, async () => {
      pauses++;
    });
    expect([r.saved, once.save(snapshot).saved, pauses]).toEqual([true, true, 2]);
    expect(readFileSync(stepped.path)).toEqual(readFileSync(once.path));
    const loaded = stepped.load(EXPECT);
    expect(loaded.ok && loaded.snapshot.files.length).toBe(600);
    let loadPauses = 0;
    const inSteps = await stepped.loadInSteps(EXPECT, async () => {
      loadPauses++;
    });
    expect([inSteps, loadPauses]).toEqual([loaded, 2]);
    // The same state again: not rewritten, without encoding.
    const again = await stepped.saveInSteps(snapshot, async () => {
      pauses++;
    });
    expect([again.saved, again.saved ? null : again.reason, pauses]).toEqual([false, "unchanged", 2]);
  });

  test("a big snapshot (≥ 1 MB) is loaded with a pause after the read, after its checksum and after its string table", async () => {
    const many = Array.from({ length: 8000 }, (_, i) => ({ ...files[i % files.length], path: `${SAMPLE}/f${i}.xml` }));
    const store = new SnapshotStore(freshHome(), SAMPLE);
    const saved = store.save(snapshotOf(SAMPLE, many));
    if (!saved.saved) throw new Error(saved.message);
    expect(saved.size).toBeGreaterThan(1 << 20);
    let pauses = 0;
    const loaded = await store.loadInSteps(EXPECT, async () => {
      pauses++;
    });
    // 3, then one after every 256 of the 8,000 files.
    expect([loaded.ok && loaded.snapshot.files.length, pauses]).toEqual([8000, 3 + Math.floor(8000 / 256)]);
  });

  test("nothing saved yet: load says missing, meta is null", () => {
    const store = new SnapshotStore(freshHome(), SAMPLE);
    expect(store.load(EXPECT)).toEqual({ ok: false, reason: "missing", message: `no snapshot yet at ${store.path}` });
    expect(store.meta()).toBeNull();
  });

  test("save, then load and meta round-trip; only the snapshot and meta files remain", () => {
    const store = new SnapshotStore(freshHome(), SAMPLE);
    const s = snapshotOf(SAMPLE, files, { sdkDir: "/sdk", buildId: 3, phase: "xml", complete: false });
    const saved = store.save(s);
    if (!saved.saved) throw new Error(saved.message);
    expect(saved.size).toBe(statSync(store.path).size);
    const loaded = store.load(EXPECT);
    expect(loaded.ok && loaded.snapshot).toEqual(s);
    expect(store.meta()).toEqual({
      schemaVersion: SNAPSHOT_SCHEMA_VERSION,
      toolVersion: "9.9.9",
      projectDir: SAMPLE,
      sdkDir: "/sdk",
      schemaKey: "schema-abc",
      generatedAt: "2026-01-02T03:04:05.000Z",
      buildId: 3,
      phase: "xml",
      complete: false,
      stale: false,
      size: saved.size,
      files: 16,
      stats: { files: 16, assets: 28, linkMs: 1.5 },
    });
    expect(saved.meta).toEqual(store.meta()!);
    expect(readdirSync(join(store.home, "snapshots")).length).toBe(2);
  });

  test("a snapshot of another project found at this path is ignored, with the reason", () => {
    const home = freshHome();
    const other = new SnapshotStore(home, "/mods/Other");
    other.save(snapshotOf("/mods/Other", files));
    const store = new SnapshotStore(home, SAMPLE);
    mkdirSync(join(home, "snapshots"), { recursive: true });
    copyFileSync(other.path, store.path);
    expect(store.load(EXPECT)).toEqual({
      ok: false,
      reason: "project",
      message: `the snapshot belongs to another project (/mods/Other), not ${SAMPLE}`,
    });
  });

  test("a snapshot written by another ra3 version is ignored, with the reason", () => {
    const store = new SnapshotStore(freshHome(), SAMPLE);
    store.save(snapshotOf(SAMPLE, files, { toolVersion: "0.0.1" }));
    expect(store.load(EXPECT)).toEqual({
      ok: false,
      reason: "tool",
      message: "the snapshot was written by ra3 0.0.1; this is ra3 9.9.9",
    });
  });

  test("a snapshot in another format version is ignored, with the reason", () => {
    const store = new SnapshotStore(freshHome(), SAMPLE);
    store.save(snapshotOf(SAMPLE, files));
    const b = readFileSync(store.path);
    b.writeUInt32LE(0, 8);
    writeFileSync(store.path, b);
    expect(store.load(EXPECT)).toEqual({
      ok: false,
      reason: "version",
      message: `the snapshot has format version 0; this ra3 reads version ${SNAPSHOT_SCHEMA_VERSION}`,
    });
  });

  test("a damaged snapshot is reported as corrupt", () => {
    const store = new SnapshotStore(freshHome(), SAMPLE);
    store.save(snapshotOf(SAMPLE, files));
    const b = readFileSync(store.path);
    b[b.length - 10] ^= 0xff;
    writeFileSync(store.path, b);
    expect(store.load(EXPECT)).toEqual({
      ok: false,
      reason: "corrupt",
      message: "the snapshot is corrupt: checksum mismatch",
    });
  });

  test("an unreadable snapshot path is reported, not thrown", () => {
    const store = new SnapshotStore(freshHome(), SAMPLE);
    mkdirSync(store.path, { recursive: true });
    expect(store.load(EXPECT)).toEqual({
      ok: false,
      reason: "unreadable",
      message: `the snapshot ${store.path} could not be read (EISDIR)`,
    });
  });

  test("while another writer holds the lock, save is skipped and says who holds it", () => {
    const store = new SnapshotStore(freshHome(), SAMPLE);
    store.save(snapshotOf(SAMPLE, files, { buildId: 1 }));
    const lock = acquireLock(store.lockPath);
    if (isLockBusy(lock)) throw new Error("lock unexpectedly busy");
    const r = store.save(snapshotOf(SAMPLE, files, { buildId: 2, stale: true }));
    expect(r).toEqual({
      saved: false,
      reason: "busy",
      message:
        `process ${process.pid} on ${hostname()} has been writing the snapshot since ${lock.owner.createdAt}; this save was skipped`,
      busy: { pid: process.pid, hostname: hostname(), since: lock.owner.createdAt },
    });
    lock.release();
    const loaded = store.load(EXPECT);
    expect(loaded.ok && loaded.snapshot.buildId).toBe(1);
    expect(store.meta()?.buildId).toBe(1);
    expect(store.save(snapshotOf(SAMPLE, files, { buildId: 2, stale: true })).saved).toBe(true);
  });

  test("a home folder that cannot be created gives an error value", () => {
    const blocker = join(root, "a-file");
    writeFileSync(blocker, "x");
    const store = new SnapshotStore(blocker, SAMPLE);
    const r = store.save(snapshotOf(SAMPLE, files));
    expect(r.saved).toBe(false);
    expect(!r.saved && r.reason).toBe("error");
    expect(!r.saved && r.message).toMatch(
      new RegExp(`^could not lock ${store.lockPath.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\((ENOTDIR|EEXIST): `),
    );
  });

  test("meta is null when the meta file is not valid JSON or lacks fields", () => {
    const store = new SnapshotStore(freshHome(), SAMPLE);
    store.save(snapshotOf(SAMPLE, files));
    writeFileSync(store.metaPath, "{ not json");
    expect(store.meta()).toBeNull();
    writeFileSync(store.metaPath, JSON.stringify({ schemaVersion: 1, toolVersion: "9.9.9" }));
    expect(store.meta()).toBeNull();
  });
});

describe("no write of the state already on disk", () => {
  // The same index built again: another build id, time and link timing, the same records and stamps.
  const rebuilt = (over: Parameters<typeof snapshotOf>[2] = {}) =>
    snapshotOf(SAMPLE, files, {
      buildId: 8,
      generatedAt: "2026-05-06T07:08:09.000Z",
      stats: { files: 16, assets: 28, linkMs: 9.75 },
      ...over,
    });
  const stampOf = (p: string) => {
    const st = statSync(p);
    return `${st.size}/${st.mtimeMs}/${st.ino}`;
  };

  test("after its own save, the same state again is not written: the file stays the one on disk", () => {
    const store = new SnapshotStore(freshHome(), SAMPLE);
    const first = store.save(snapshotOf(SAMPLE, files));
    if (!first.saved) throw new Error(first.message);
    const before = [stampOf(store.path), stampOf(store.metaPath)];
    expect(store.save(rebuilt())).toEqual({
      saved: false,
      reason: "unchanged",
      message: `the snapshot ${store.path} already holds this index; it was not rewritten`,
      path: store.path,
      size: first.size,
    });
    expect([stampOf(store.path), stampOf(store.metaPath)]).toEqual(before);
    const loaded = store.load(EXPECT);
    expect(loaded.ok && loaded.snapshot.buildId).toBe(7); // the stored build, not the skipped one
  });

  test("after a load (another process wrote it), the same state is not written either", () => {
    const home = freshHome();
    new SnapshotStore(home, SAMPLE).save(snapshotOf(SAMPLE, files));
    const store = new SnapshotStore(home, SAMPLE);
    expect(store.load(EXPECT).ok).toBe(true);
    const r = store.save(rebuilt());
    expect(!r.saved && r.reason).toBe("unchanged");
  });

  test("any difference in what is stored is written: a stamp, a file, the phase, stale, a count, the SDK", () => {
    const variants: [string, Parameters<typeof snapshotOf>[2]][] = [
      ["a file's mtime", { files: files.map((f, i) => i === 3 ? { ...f, stamp: { ...f.stamp!, mtimeMs: 1 } } : f) }],
      ["a file's size", { files: files.map((f, i) => i === 0 ? { ...f, stamp: { ...f.stamp!, size: 1 } } : f) }],
      ["a file less", { files: files.slice(1) }],
      ["the file order", { files: [...files].reverse() }],
      ["the phase", { phase: "xml", complete: false }],
      ["stale", { stale: true }],
      ["a count in the stats", { stats: { files: 16, assets: 29, linkMs: 9.75 } }],
      ["the SDK", { sdkDir: "/sdk" }],
      ["the schema", { schemaKey: "schema-def" }],
    ];
    for (const [what, over] of variants) {
      const store = new SnapshotStore(freshHome(), SAMPLE);
      store.save(snapshotOf(SAMPLE, files));
      expect([what, store.save(rebuilt(over)).saved]).toEqual([what, true]);
    }
  });

  test("a file this store did not see whole is rewritten even if it claims the state", () => {
    // Damaged in place after the save (same size, new mtime): the next save repairs it.
    const store = new SnapshotStore(freshHome(), SAMPLE);
    store.save(snapshotOf(SAMPLE, files));
    const bytes = readFileSync(store.path);
    bytes[bytes.length - 10] ^= 0xff;
    writeFileSync(store.path, bytes);
    expect(store.save(rebuilt()).saved).toBe(true);
    expect(store.load(EXPECT).ok).toBe(true);
    // A damaged file that fails to load: the cold rebuild's save writes it again.
    writeFileSync(store.path, readFileSync(store.path).subarray(0, 200));
    expect(store.load(EXPECT).ok).toBe(false);
    expect(store.save(rebuilt()).saved).toBe(true);
    // The meta file gone: written again too.
    rmSync(store.metaPath);
    expect(store.save(rebuilt()).saved).toBe(true);
    expect(store.meta()?.buildId).toBe(8);
  });

  test("the state key ignores build id, time and timings, and nothing else of the header", () => {
    const base = snapshotOf(SAMPLE, files);
    expect(snapshotStateKey(rebuilt())).toBe(snapshotStateKey(base));
    expect(snapshotStateKey(rebuilt({ toolVersion: "9.9.8" }))).not.toBe(snapshotStateKey(base));
    expect(snapshotStateKey(rebuilt({ projectDir: "/elsewhere" }))).not.toBe(snapshotStateKey(base));
  });
});
