/**
 * A warm start's stored reference sites that do not decode, met by the server: queries that read sites
 * arrive at once while the warm start is still re-reading changed files. The decode is shared, and the
 * refusal (the index linked again from the files) runs in the service's exclusive section after that
 * work, never beside it: every call answers what a fresh build answers, the refusal is said once, and
 * each touched file is read once by the warm start plus once by the refusal.
 */
import { describe, expect, test } from "bun:test";
import { cpSync, readdirSync, readFileSync, rmSync, utimesSync } from "node:fs";
import { join } from "node:path";
import type { FileSource } from "../../src/workspace/file-source.ts";
import { SnapshotStore } from "../../src/store/snapshot-store.ts";
import { connect, type Json, SAMPLE } from "./harness.ts";
import { tempDirs } from "../temp-dirs.ts";
import { corruptSites } from "../workspace/damaged-snapshot.ts";

const TMP = tempDirs();

/** A disk that takes 5 ms of this thread per file, counting the reads. */
function slowSource(): FileSource & { reads: number } {
  const source = {
    reads: 0,
    read(path: string): Uint8Array {
      const until = performance.now() + 5;
      while (performance.now() < until) { /* busy: the thread is not free meanwhile */ }
      source.reads++;
      return readFileSync(path);
    },
  };
  return source;
}

/** The sample mod in a temp folder, its snapshot saved by a server, then its stored sites damaged. */
async function damaged(): Promise<{ dir: string; home: string; want: Json; wantUses: Json; xml: string[] }> {
  const base = TMP.make("ra3-stored-sites-");
  const dir = join(base, "Sample Mod");
  cpSync(SAMPLE, dir, { recursive: true });
  const home = join(base, "home");
  const first = await connect(dir, { home });
  const want = (await first.call("find_references", { id: "AthenaCannonBeam", consistency: "strict" }))
    .structuredContent as Json;
  const wantUses = (await first.call("get_asset_references", { id: "AlliedAthenaCannon" })).structuredContent as Json;
  await first.close(); // flushes the snapshot
  corruptSites(new SnapshotStore(home, dir));
  const xml = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith(".xml"));
  return { dir, home, want: want.result, wantUses: wantUses.result, xml };
}

/** Four sites-reading calls at once on a server warm-starting from `home`, then a strict one. */
async function askAtOnce(dir: string, home: string) {
  const files = slowSource();
  const h = await connect(dir, { home, files });
  const calls = await Promise.all([
    h.call("find_references", { id: "AthenaCannonBeam" }),
    h.call("find_references", { id: "AthenaCannonBeam" }),
    h.call("get_asset_references", { id: "AlliedAthenaCannon" }),
    h.call("find_references", { id: "AthenaCannonBeam" }),
  ]);
  const done = await h.call("find_references", { id: "AthenaCannonBeam", consistency: "strict" });
  await h.close();
  return {
    files,
    results: [...calls, done].map((c) => [c.isError ?? false, (c.structuredContent as Json).result]),
    refusals: h.logs.filter((l) => l.includes("do not decode")),
    failures: h.logs.filter((l) => l.startsWith("index update failed") || l.startsWith("protocol error")),
  };
}

describe("stored sites that do not decode, read by concurrent MCP queries", () => {
  test(
    "nothing changed: the first reads refuse the stored index once; every call answers a fresh build's references",
    async () => {
      const { dir, home, want, wantUses } = await damaged();
      const { files, results, refusals, failures } = await askAtOnce(dir, home);
      expect(refusals).toEqual([
        "Sample Mod: the snapshot is corrupt: its stored reference sites do not decode (a number is longer than 8 bytes); " +
        "the index was linked again from the files (16 records read again)",
      ]);
      expect(failures).toEqual([]);
      expect(results).toEqual([[false, want], [false, want], [false, wantUses], [false, want], [false, want]]);
      expect(files.reads).toBe(16); // every file of the sample once, by the refusal
    },
    30_000,
  );

  test(
    "read while the warm start re-reads changed files: decoded beside it, refused after it (never two refreshes at once)",
    async () => {
      const { dir, home, want, wantUses, xml } = await damaged();
      // Every XML file touched: the warm start serves the stored index, then re-reads them all.
      const later = new Date(Date.now() + 10_000);
      for (const f of xml) utimesSync(join(dir, f), later, later);
      const { files, results, refusals, failures } = await askAtOnce(dir, home);
      // The warm start's refresh published an index linked from the files before the refusal's turn came:
      // nothing is left to refuse, and no file was read twice.
      expect(refusals).toEqual([]);
      expect(failures).toEqual([]);
      expect(results).toEqual([[false, want], [false, want], [false, wantUses], [false, want], [false, want]]);
      expect(files.reads).toBe(xml.length);
    },
    30_000,
  );

  test(
    "the refusal itself fails (the mod's folder gone): the query says why, not an answer from the broken index",
    async () => {
      const { dir, home } = await damaged();
      const h = await connect(dir, { home });
      // The warm start done (the stored index served, nothing changed), then the folder goes.
      const picked = h.registry.pick(null);
      if (!("service" in picked)) throw new Error("no project");
      await picked.service.start();
      rmSync(dir, { recursive: true, force: true });
      const first = await h.call("find_references", { id: "AthenaCannonBeam" });
      const again = await h.call("find_references", { id: "AthenaCannonBeam" });
      // A resource read: the same reason, as the protocol error resources fail with.
      const read = await h.client.readResource({ uri: "ra3://asset/WeaponTemplate/AthenaCannonBeam" }).then(
        () => null,
        (x: { code?: number; message?: string }) => x,
      );
      await h.close();
      expect(read?.code).toBe(-32603);
      expect(read?.message).toStartWith(
        "the stored index cannot be read: the snapshot is corrupt: its stored reference sites do not decode " +
          "(a number is longer than 8 bytes), and linking the files again failed: ",
      );
      expect(read?.message).toEndWith("; fix the cause, then call the reindex tool");
      for (const c of [first, again]) {
        const error = (c.structuredContent as { error?: { code: string; message: string } }).error;
        expect([c.isError, error?.code]).toEqual([true, "no_index"]);
        expect(error?.message).toStartWith(
          "the stored index cannot be read: the snapshot is corrupt: its stored reference sites do not decode " +
            "(a number is longer than 8 bytes), and linking the files again failed: ",
        );
        expect(error?.message).toEndWith("; fix the cause, then call reindex");
      }
    },
    30_000,
  );
});
