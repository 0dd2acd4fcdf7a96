// Warm-start planning: which stored records are still valid.
import { describe, expect, test } from "bun:test";
import { IndexCore, sameStamp } from "../../src/index/core.ts";
import { emptyRecord } from "../../src/index/records.ts";
import type { SnapshotFile } from "../../src/store/codec.ts";
import { planWarmStart, snapshotFiles } from "../../src/store/warm-start.ts";

const file = (path: string, stamp: SnapshotFile["stamp"]): SnapshotFile => ({
  path,
  stamp,
  record: emptyRecord("xml"),
});

describe("planWarmStart", () => {
  test("same size and mtime: reuse; different or unknown stamp: re-read; gone: vanished", () => {
    const disk: Record<string, { size: number; mtimeMs: number }> = {
      "/m/same.xml": { size: 10, mtimeMs: 1000.5 },
      "/m/edited.xml": { size: 10, mtimeMs: 2000 },
      "/m/grown.xml": { size: 11, mtimeMs: 1000 },
      "/m/unknown.xml": { size: 1, mtimeMs: 1 },
    };
    const plan = planWarmStart(
      [
        file("/m/same.xml", { size: 10, mtimeMs: 1000.5 }),
        file("/m/edited.xml", { size: 10, mtimeMs: 1000 }),
        file("/m/grown.xml", { size: 10, mtimeMs: 1000 }),
        file("/m/unknown.xml", null),
        file("/m/deleted.xml", { size: 3, mtimeMs: 3 }),
      ],
      (p) => disk[p] ?? null,
    );
    expect({ reuse: plan.reuse.map((f) => f.path), changed: plan.changed, vanished: plan.vanished }).toEqual({
      reuse: ["/m/same.xml"],
      changed: ["/m/edited.xml", "/m/grown.xml", "/m/unknown.xml"],
      vanished: ["/m/deleted.xml"],
    });
  });
});

describe("sameStamp: a snapshot written by the other runtime", () => {
  test("whole milliseconds on one side (Deno truncates them): equal when the milliseconds are", () => {
    expect(sameStamp({ size: 10, mtimeMs: 1000 }, { size: 10, mtimeMs: 1000.812 })).toBe(true);
    expect(sameStamp({ size: 10, mtimeMs: 1000.812 }, { size: 10, mtimeMs: 1000 })).toBe(true);
    expect(sameStamp({ size: 10, mtimeMs: 1000 }, { size: 10, mtimeMs: 1001.2 })).toBe(false);
    expect(sameStamp({ size: 10, mtimeMs: 1000 }, { size: 11, mtimeMs: 1000.5 })).toBe(false);
  });

  test("fractions on both sides (one runtime): compared exactly", () => {
    expect(sameStamp({ size: 10, mtimeMs: 1000.25 }, { size: 10, mtimeMs: 1000.25 })).toBe(true);
    expect(sameStamp({ size: 10, mtimeMs: 1000.25 }, { size: 10, mtimeMs: 1000.75 })).toBe(false);
  });

  test("a Deno-written snapshot's stamps reuse the files Bun sees unchanged, and only those", () => {
    const disk: Record<string, { size: number; mtimeMs: number }> = {
      "/m/a.xml": { size: 10, mtimeMs: 1796190960236.812 },
      "/m/b.xml": { size: 10, mtimeMs: 1796190961000.5 },
    };
    const plan = planWarmStart(
      [file("/m/a.xml", { size: 10, mtimeMs: 1796190960236 }), file("/m/b.xml", { size: 10, mtimeMs: 1796190960236 })],
      (p) => disk[p] ?? null,
    );
    expect({ reuse: plan.reuse.map((f) => f.path), changed: plan.changed }).toEqual({
      reuse: ["/m/a.xml"],
      changed: ["/m/b.xml"],
    });
  });
});

describe("snapshotFiles", () => {
  test("collects every record of the core with its stamp; installing them back gives the same files", () => {
    const core = new IndexCore(null);
    core.applyChanges([{
      path: "/m/Data/Mod.xml",
      bytes: new TextEncoder().encode("<AssetDeclaration/>"),
      stamp: { size: 19, mtimeMs: 5 },
    }]);
    core.setRecord("/m/Data/X.xml", emptyRecord("xml"), null);
    const files = snapshotFiles(core);
    expect(files.map((f) => [f.path, f.stamp])).toEqual([
      ["/m/Data/Mod.xml", { size: 19, mtimeMs: 5 }],
      ["/m/Data/X.xml", null],
    ]);
    const again = new IndexCore(null);
    for (const f of files) again.setRecord(f.path, f.record, f.stamp);
    expect(snapshotFiles(again)).toEqual(files);
  });
});
