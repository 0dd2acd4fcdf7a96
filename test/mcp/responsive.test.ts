/**
 * The server never stalls: while a long build or warm start runs (a file source that takes 15 ms per
 * file, so the sample mod's 16 files take a quarter of a second), calls answer before the work is done.
 * A cold build: get_status says `building` and a query says it is building. A warm start: calls wait
 * only while the snapshot is decoded and linked, then answer from it (marked stale) while the changed
 * files are re-read; a snapshot that cannot be used is no reason to wait. No timing thresholds: the
 * tests count the files read when each answer arrived (and the cold one asks once the build has read 3
 * files, seen from a timer, which runs only if the build yields).
 */
import { describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scanProjectFiles } from "../../src/project/scan.ts";
import type { FileSource } from "../../src/workspace/file-source.ts";
import { SnapshotStore } from "../../src/store/snapshot-store.ts";
import { connect, type Json, SAMPLE, textOf } from "./harness.ts";
import type { ProjectHandle } from "../../src/mcp/projects.ts";
import { tempDirs } from "../temp-dirs.ts";
import { bigDocument } from "../xml/big-document.ts";
import { PARSE_STEP_CHARS, SLICED_PARSE_BYTES } from "../../src/workspace/workspace.ts";

const TMP = tempDirs();

/**
 * Resolves once `done()` holds, checking from timers: a timer runs only when the thread is free, so this
 * returns during a build only if the build lets other work run.
 */
async function whenFree(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setTimeout(r, 1));
}

/** A disk that takes 15 ms of this thread per file (as a slow disk or a big file would). */
function slowSource(): FileSource & { reads: number } {
  const source = {
    reads: 0,
    read(path: string): Uint8Array {
      const until = performance.now() + 15;
      while (performance.now() < until) { /* busy: the thread is not free meanwhile */ }
      source.reads++;
      return readFileSync(path);
    },
  };
  return source;
}

describe("answers during long work", () => {
  test(
    "a cold build: get_status says building and find_asset says so, before the build has read its files",
    async () => {
      const files = slowSource();
      const h = await connect(SAMPLE, { files });
      await whenFree(() => files.reads >= 3);
      const status = await h.call("get_status");
      const readsAtAnswer = files.reads;
      expect((status.structuredContent as Json).index.state).toBe("building");
      const find = await h.call("find_asset", { id: "AlliedAthenaCannon" });
      expect([find.isError, (find.structuredContent as Json).error.code]).toEqual([true, "building"]);
      const done = await h.call("get_status", { consistency: "strict" });
      expect((done.structuredContent as Json).index.state).toBe("ready");
      expect(files.reads).toBe(scanProjectFiles(SAMPLE).length); // every file, once
      expect(readsAtAnswer).toBeLessThan(files.reads);
      await h.close();
    },
    30_000,
  );

  /** The sample mod in a temp folder with a saved snapshot (in `home`), every XML file touched since. */
  async function savedThenTouched(): Promise<{ dir: string; home: string; xml: string[] }> {
    const base = TMP.make("ra3-responsive-");
    const dir = join(base, "Sample Mod");
    cpSync(SAMPLE, dir, { recursive: true });
    const home = join(base, "home");
    const first = await connect(dir, { home });
    await first.call("get_status", { consistency: "strict" });
    await first.close(); // flushes the snapshot
    // Every XML file touched: the warm start re-reads them all.
    const later = new Date(Date.now() + 10_000);
    const xml = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith(".xml"));
    for (const f of xml) utimesSync(join(dir, f), later, later);
    return { dir, home, xml };
  }

  /**
   * Connects on `dir` with a slow source and asks get_status and find_asset at once, noting how many
   * files had been read when each answer arrived.
   */
  async function askAtOnce(dir: string, home: string) {
    const files = slowSource();
    const h = await connect(dir, { home, files });
    const status = await h.call("get_status");
    const readsAtStatus = files.reads;
    const find = await h.call("find_asset", { id: "AthenaSplash" });
    return { h, files, status, find, readsAtStatus, readsAtFind: files.reads };
  }

  test(
    "a warm start: calls wait only for the stored index, then answer from it (stale) before the refresh is done",
    async () => {
      const { dir, home, xml } = await savedThenTouched();
      // One edit since the snapshot: the stored index still has the old id until the refresh.
      const weapons = join(dir, "Data", "Includes", "Weapons.xml");
      writeFileSync(weapons, readFileSync(weapons, "utf8").replace('id="AthenaSplash"', 'id="AthenaSplashEdited"'));

      // Asked at once: the calls wait while the snapshot becomes servable (decoded, one scan, linked),
      // not for the re-reads.
      const { h, files, status, find, readsAtStatus, readsAtFind } = await askAtOnce(dir, home);
      const index = (status.structuredContent as Json).index;
      expect([index.state, index.stale, index.counts.assets > 0]).toEqual(["stale", true, true]);
      expect([find.isError ?? false, (find.structuredContent as Json).index.stale]).toEqual([false, true]);
      expect((find.structuredContent as Json).result.definitions.length).toBe(1);

      const done = await h.call("find_asset", { id: "AthenaSplashEdited", consistency: "strict" });
      const fresh = done.structuredContent as Json;
      expect([fresh.index.state, fresh.index.stale, fresh.result.definitions.length]).toEqual(["ready", false, 1]);
      const gone = await h.call("find_asset", { id: "AthenaSplash" });
      // Gone from the refreshed index (the mod still references it: "probably vanilla", no SDK).
      expect((gone.structuredContent as Json).error.code).toBe("no_sdk");
      expect(files.reads).toBe(xml.length); // every touched file, once
      // Both answers came while the refresh was still re-reading files.
      expect(readsAtStatus).toBeLessThan(files.reads);
      expect(readsAtFind).toBeLessThan(files.reads);
      await h.close();
    },
    30_000,
  );

  test(
    "the schema loads in steps: get_status says building before the XSD set is read, find_asset says building",
    async () => {
      // A fresh home (no schema cache): the sample mod's own Schemas/xsd is read through this reader.
      const xsds = { reads: 0 };
      const readSchemaFile = (path: string): Uint8Array => {
        const until = performance.now() + 15;
        while (performance.now() < until) { /* busy: the thread is not free meanwhile */ }
        xsds.reads++;
        return readFileSync(path);
      };
      const h = await connect(SAMPLE, { readSchemaFile });
      await whenFree(() => xsds.reads >= 2);
      const status = await h.call("get_status");
      const readsAtAnswer = xsds.reads;
      const early = status.structuredContent as Json;
      // Before the load is done the workspace has no schema yet: no files, no index.
      expect([early.index.state, early.index.counts.assets, early.result.schema]).toEqual([
        "building",
        0,
        { dir: join(SAMPLE, "Schemas", "xsd"), source: "project", files: 0 },
      ]);
      const find = await h.call("find_asset", { id: "AlliedAthenaCannon" });
      expect([find.isError, (find.structuredContent as Json).error.code]).toEqual([true, "building"]);

      const done = await h.call("get_status", { consistency: "strict" });
      const ready = done.structuredContent as Json;
      const xsdCount = (readdirSync(join(SAMPLE, "Schemas", "xsd"), { recursive: true }) as string[])
        .filter((f) => f.endsWith(".xsd")).length;
      expect([ready.index.state, ready.result.schema]).toEqual([
        "ready",
        { dir: join(SAMPLE, "Schemas", "xsd"), source: "project", files: xsdCount },
      ]);
      expect(xsds.reads).toBe(xsdCount); // every XSD, once
      expect(readsAtAnswer).toBeLessThan(xsds.reads);
      await h.close();
    },
    30_000,
  );

  test("a saved snapshot that cannot be used: building at once, not after the cold build", async () => {
    const { dir, home } = await savedThenTouched();
    const store = new SnapshotStore(home, dir);
    writeFileSync(store.path, "not a snapshot at all"); // its meta file still says one was saved
    const { h, files, status, find, readsAtStatus, readsAtFind } = await askAtOnce(dir, home);
    expect((status.structuredContent as Json).index.state).toBe("building");
    expect([find.isError, (find.structuredContent as Json).error.code]).toEqual([true, "building"]);
    const done = await h.call("get_status", { consistency: "strict" });
    expect((done.structuredContent as Json).index.state).toBe("ready");
    expect(files.reads).toBe(scanProjectFiles(dir).length);
    expect(readsAtStatus).toBeLessThan(files.reads);
    expect(readsAtFind).toBeLessThan(files.reads);
    await h.close();
  }, 30_000);

  test(
    "one big file is parsed in steps: calls answer between its steps, before its record exists",
    async () => {
      // The sample mod with one generated file of 1.24 M characters (about 19 steps of 64 K characters).
      const dir = join(TMP.make("ra3-responsive-big-"), "Sample Mod");
      cpSync(SAMPLE, dir, { recursive: true });
      const big = join(dir, "Data", "Big.xml");
      const text = bigDocument(2_000);
      expect(text.length).toBeGreaterThan(SLICED_PARSE_BYTES);
      writeFileSync(big, text);
      const files = { bigRead: false, read: (path: string) => (files.bigRead ||= path === big, readFileSync(path)) };
      // Slices of 0 ms: the build yields after every step, so the count of answers is a count of yields.
      const h = await connect(dir, { files, sliceMs: 0 });
      const ws = (h.registry.pick(undefined) as ProjectHandle).service.ws;
      // Checked between the build's steps (they yield with setImmediate too), not from a timer.
      while (!files.bigRead) await new Promise((r) => setImmediate(r));
      let during = 0;
      while (!ws.core.file(big)) {
        const status = await h.call("get_status");
        if (ws.core.file(big)) break;
        // Big.xml is not included: the reachable files are published first (ready_xml), then the rest parsed.
        const index = (status.structuredContent as Json).index;
        expect([["building", "ready_xml"].includes(index.state), index.complete]).toEqual([true, false]);
        during++;
        // The in-memory call answers within this turn; the build's next step runs in the next one.
        await new Promise((r) => setImmediate(r));
      }
      // About one answer per step of the big file (19 steps; 22 answers here): at least one per two steps
      // (a call that took two of the build's turns would halve the count). Unsliced: none.
      expect(during).toBeGreaterThanOrEqual(Math.floor(text.length / PARSE_STEP_CHARS / 2));
      const done = await h.call("find_asset", { id: "Unit1999", consistency: "strict" });
      const line = text.split("\r\n").findIndex((l) => l.includes('<GameObject id="Unit1999"')) + 1;
      expect((done.structuredContent as Json).result.definitions.map((d: Json) => d.at)).toEqual([
        `Data/Big.xml:${line}`,
      ]);
      await h.close();
    },
    30_000,
  );

  /** The sample mod in a temp folder with 16 drafts nothing includes (they outweigh what Mod.xml reaches). */
  function withDrafts(): { dir: string; xmlFiles: number } {
    const dir = join(TMP.make("ra3-responsive-reach-"), "Sample Mod");
    cpSync(SAMPLE, dir, { recursive: true });
    mkdirSync(join(dir, "Data", "Drafts"));
    for (let i = 0; i < 16; i++) {
      const weapons = Array.from({ length: 12 }, (_, k) => `  <WeaponTemplate id="Draft${i}Weapon${k}"/>\n`).join("");
      writeFileSync(
        join(dir, "Data", "Drafts", `Draft${i}.xml`),
        `<?xml version="1.0" encoding="utf-8"?>\n<AssetDeclaration xmlns="uri:ea.com:eala:asset">\n${weapons}</AssetDeclaration>\n`,
      );
    }
    return { dir, xmlFiles: scanProjectFiles(dir).filter((f) => f.kind !== "w3x").length };
  }

  test(
    "reachable first: lookups that find what they ask answer from the reachable index; the rest waits for every file",
    async () => {
      const { dir, xmlFiles } = withDrafts();
      const files = slowSource();
      const h = await connect(dir, { files });
      const ws = (h.registry.pick(undefined) as ProjectHandle).service.ws;
      await whenFree(() => ws.reachedOnly);

      const status = await h.call("get_status");
      const index = (status.structuredContent as Json).index;
      expect([index.state, index.complete, index.reachedOnly]).toEqual(["ready_xml", false, true]);
      // A definition in a reached file: at once, marked reachedOnly, with the note saying what may be missing.
      const hit = await h.call("find_asset", { id: "AlliedAthenaCannon" });
      const readsAtHit = files.reads;
      expect([hit.isError ?? false, (hit.structuredContent as Json).index.reachedOnly]).toEqual([false, true]);
      expect(textOf(hit)).toContain("only the files the entry points include are read so far");
      const active = await h.call("is_file_active", { path: "Data/Includes/Weapons.xml" });
      expect((active.structuredContent as Json).result.chain.hops.length).toBe(1);
      expect(readsAtHit).toBeLessThan(xmlFiles);

      // Asked while the rest is pending: a lookup that misses, a file nothing includes and a listing
      // wait for the rest, then answer from every file.
      expect(ws.reachedOnly).toBe(true);
      const readsAt: number[] = [];
      const noted = <T>(p: Promise<T>) => p.then((r) => (readsAt.push(files.reads), r));
      const [miss, draft, list] = await Promise.all([
        noted(h.call("find_asset", { id: "Draft5Weapon3" })),
        noted(h.call("is_file_active", { path: "Data/Drafts/Draft9.xml" })),
        noted(h.call("list_files", { state: "not-included", prefix: "Data/Drafts" })),
      ]);
      for (const n of readsAt) expect(n).toBeGreaterThanOrEqual(xmlFiles);
      const found = miss.structuredContent as Json;
      expect([found.index.reachedOnly, found.result.definitions.map((d: Json) => d.state)]).toEqual([
        undefined,
        ["not-included"],
      ]);
      expect((draft.structuredContent as Json).result.state).toBe("not-included");
      expect((list.structuredContent as Json).result.total).toBe(16);

      const done = await h.call("get_status", { consistency: "strict" });
      expect([(done.structuredContent as Json).index.state, files.reads]).toEqual([
        "ready",
        scanProjectFiles(dir).length,
      ]);
      await h.close();
    },
    30_000,
  );
});
