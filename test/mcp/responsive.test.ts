/**
 * The server never stalls: while a long build or warm start runs (a file source that takes 15 ms per
 * file, so the sample mod's 16 files take a quarter of a second), get_status answers with `building` and a query
 * says it is building, before the build has read its files. No timing thresholds: the test asks once the
 * build has read 3 files (seen from a timer, which runs only if the build yields) and counts the files
 * read when the answer arrived.
 */
import { describe, expect, test } from "bun:test";
import { cpSync, readdirSync, readFileSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { scanProjectFiles } from "../../src/project/scan.ts";
import type { FileSource } from "../../src/workspace/file-source.ts";
import { connect, type Json, SAMPLE } from "./harness.ts";
import { tempDirs } from "../temp-dirs.ts";

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

  test("a warm start re-reading changed files: get_status answers before it is done", async () => {
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

    const files = slowSource();
    const h = await connect(dir, { home, files });
    await whenFree(() => files.reads >= 3);
    const status = await h.call("get_status");
    const readsAtAnswer = files.reads;
    expect((status.structuredContent as Json).index.state).toBe("building");
    const done = await h.call("get_status", { consistency: "strict" });
    expect((done.structuredContent as Json).index.state).toBe("ready");
    expect(files.reads).toBe(xml.length);
    expect(readsAtAnswer).toBeLessThan(files.reads);
    await h.close();
  }, 30_000);
});
