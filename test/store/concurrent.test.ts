// Two processes writing the same snapshot while this one reads it: every read is one complete snapshot.
import { afterAll, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeSnapshot } from "../../src/store/codec.ts";
import { SnapshotStore } from "../../src/store/snapshot-store.ts";

const CHILD = join(import.meta.dirname, "writer-child.ts");
const PROJECT = "/mods/Concurrent Mod";
const COUNT = 20;
const root = mkdtempSync(join(tmpdir(), "ra3-concurrent-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface ChildResult {
  code: number | null;
  out: string;
  err: string;
}

function runChild(args: string[]): Promise<ChildResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CHILD, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, MSGPACKR_NATIVE_ACCELERATION_DISABLED: "true" },
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    child.on("close", (code) => resolve({ code, out, err }));
  });
}

/** Reads and decodes `path` until `done` resolves; returns the build ids seen and any failures. */
async function readWhile(path: string, done: Promise<unknown>): Promise<{ ids: number[]; failures: string[] }> {
  let finished = false;
  void done.then(() => (finished = true));
  const ids: number[] = [];
  const failures: string[] = [];
  // One more read after the writers are done, so there is always at least one.
  for (let last = false; !last;) {
    last = finished;
    if (existsSync(path)) {
      const r = decodeSnapshot(readFileSync(path), { projectDir: PROJECT, toolVersion: "9.9.9" });
      if (r.ok) ids.push(r.snapshot.buildId);
      else failures.push(`${r.reason}: ${r.message}`);
    }
    await new Promise((r) => setImmediate(r));
  }
  return { ids, failures };
}

const writtenIds = (tag: number) => Array.from({ length: COUNT }, (_, i) => tag * 1000 + i);

describe("concurrent writers", () => {
  test(
    "raw atomic writes from two processes: every read decodes, and the final file is one writer's last",
    async () => {
      const target = join(root, "raw", "snap.msgpack");
      const children = Promise.all([
        runChild(["raw", target, PROJECT, "1", String(COUNT)]),
        runChild(["raw", target, PROJECT, "2", String(COUNT)]),
      ]);
      const { ids, failures } = await readWhile(target, children);
      const results = await children;
      expect(results.map((r) => [r.code, r.err])).toEqual([[0, ""], [0, ""]]);
      expect(failures).toEqual([]);
      expect(ids.length).toBeGreaterThan(0);
      const valid = new Set([...writtenIds(1), ...writtenIds(2)]);
      expect(ids.filter((id) => !valid.has(id))).toEqual([]);
      const final = decodeSnapshot(readFileSync(target), { projectDir: PROJECT, toolVersion: "9.9.9" });
      expect(final.ok && [1000 + COUNT - 1, 2000 + COUNT - 1].includes(final.snapshot.buildId)).toBe(true);
      expect(final.ok && final.snapshot.files.length).toBe(16 * 200);
      expect(readdirSync(join(root, "raw"))).toEqual(["snap.msgpack"]);
    },
    120_000,
  );

  test(
    "saves through the store from two processes: the lock skips some, the file and its meta always agree at the end",
    async () => {
      const home = join(root, "home");
      const store = new SnapshotStore(home, PROJECT);
      const children = Promise.all([
        runChild(["store", home, PROJECT, "3", String(COUNT)]),
        runChild(["store", home, PROJECT, "4", String(COUNT)]),
      ]);
      const { ids, failures } = await readWhile(store.path, children);
      const results = await children;
      expect(results.map((r) => [r.code, r.err])).toEqual([[0, ""], [0, ""]]);
      const counts = results.map((r) => JSON.parse(r.out) as { written: number; busy: number });
      expect(counts.map((c) => c.written + c.busy)).toEqual([COUNT, COUNT]);
      expect(counts[0].written + counts[1].written).toBeGreaterThan(0);
      expect(failures).toEqual([]);
      const valid = new Set([...writtenIds(3), ...writtenIds(4)]);
      expect(ids.filter((id) => !valid.has(id))).toEqual([]);
      const final = store.load({ projectDir: PROJECT, toolVersion: "9.9.9" });
      if (!final.ok) throw new Error(final.message);
      expect(store.meta()?.buildId).toBe(final.snapshot.buildId);
      expect(readdirSync(join(home, "snapshots")).sort()).toEqual(
        [store.path, store.metaPath].map((p) => p.slice(p.lastIndexOf("/") + 1)).sort(),
      );
    },
    120_000,
  );
});
