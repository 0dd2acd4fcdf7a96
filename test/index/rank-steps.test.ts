/**
 * Issue 16 item 7: the link's ranking in steps (a merge sort of runs of a few thousand assets, yielding
 * between them, and the by-type lists sorted the same way) gives exactly the order and lists a sort in
 * one block gives; `sortSteps` equals `Array.prototype.sort` for any total order, run size and length.
 */
import { describe, expect, test } from "bun:test";
import { walkStreams } from "../../src/index/include-walk.ts";
import { linkAssetsSteps, recordAsset } from "../../src/index/link-assets.ts";
import { linkContext } from "../../src/index/link-context.ts";
import { fileInfoOf, linkFilesSteps } from "../../src/index/link-files.ts";
import { type AssetDef, type FileInfo, rankAssetsSteps, rankCompare } from "../../src/index/linked.ts";
import { runSteps, sortSteps } from "../../src/steps.ts";
import { prng } from "../prng.ts";
import { doc, includes, memIndex } from "./fixture.ts";

/** Steps of `steps` until its end: [yields, result]. */
function drive<T>(steps: Generator<void, T, void>): [number, T] {
  let n = 0;
  let r = steps.next();
  for (; !r.done; r = steps.next()) n++;
  return [n, r.value];
}

/** `n` assets of a generated mod: a few hundred files, each with its assets in line order, ids shared across files. */
function assetsOf(n: number, seed: number): AssetDef[] {
  const rnd = prng(seed);
  const origins = ["project", "sdk", "manifest"] as const;
  const states = ["compiled", "referenced", "not-included"] as const;
  const out: AssetDef[] = [];
  for (let i = 0; i < n; i++) {
    const file = Math.floor(rnd() * 300);
    out.push({
      index: i,
      type: `Type${Math.floor(rnd() * 2)}`,
      id: `${rnd() < 0.5 ? "Allied" : "soviet"}Unit${Math.floor(rnd() * (n / 3))}`,
      file: `/m/Data/F${file}.xml`,
      line: Math.floor(rnd() * 900) + 1,
      column: 3,
      startLine: 1,
      endLine: 1,
      origin: origins[file % 3],
      streams: [],
      state: states[(file >> 2) % 3],
      active: false,
      viaInstance: false,
      fileHasErrors: false,
      inheritFrom: null,
      manifestSource: null,
      viaXInclude: false,
      recordIndex: i,
      start: 0,
      end: 0,
    });
  }
  return out;
}

describe("sorting in steps", () => {
  test("sortSteps equals Array.prototype.sort for every length and run size, on arrays and Int32Arrays", () => {
    const rnd = prng(16);
    for (const n of [0, 1, 2, 5, 64, 1000, 4097, 20000]) {
      // Many equal keys: the order is total only through the tie on the item itself.
      const key = Array.from({ length: n }, () => Math.floor(rnd() * 50));
      const compare = (x: number, y: number) => key[x] - key[y] || x - y;
      const items = Array.from({ length: n }, (_, i) => i).sort(() => rnd() - 0.5);
      const expected = items.slice().sort(compare);
      for (const run of [1, 2, 3, 7, 100, 4096]) {
        const list = items.slice();
        const [yields] = drive(sortSteps(list, compare, run));
        expect(list).toEqual(expected);
        // A yield after each run of a list longer than one run, and after each merge pass.
        expect(yields >= (n > run ? Math.ceil(n / run) : 0)).toBe(true);
        const typed = Int32Array.from(items);
        runSteps(sortSteps(typed, compare, run));
        expect([...typed]).toEqual(expected);
      }
    }
  });

  test("the ranking in steps equals one sort of every asset by rank and of each type's list by id (10,000 assets)", () => {
    const assets = assetsOf(10_000, 7);
    const [yields, ranked] = drive(rankAssetsSteps(assets));
    // Three runs of 4,096 sorted a step each, two merge passes, the lists, the long type lists.
    expect(yields).toBeGreaterThanOrEqual(6);
    const order = assets.map((_, i) => i).sort((x, y) => rankCompare(assets[x], assets[y]) || x - y);
    expect([...ranked.order]).toEqual(order);
    const pos: number[] = [];
    order.forEach((i, p) => (pos[i] = p));
    expect([...ranked.pos]).toEqual(pos);
    const lower = assets.map((a) => a.id.toLowerCase());
    expect(ranked.lowerIds).toEqual(lower);
    const byId = new Map<string, number[]>();
    for (const i of order) byId.set(lower[i], [...(byId.get(lower[i]) ?? []), i]);
    expect([...ranked.byId]).toEqual([...byId]);
    const byType = new Map<string, number[]>();
    for (const i of order) byType.set(assets[i].type, [...(byType.get(assets[i].type) ?? []), i]);
    for (const list of byType.values()) {
      list.sort((x, y) => (lower[x] < lower[y] ? -1 : lower[x] > lower[y] ? 1 : pos[x] - pos[y]));
    }
    expect([...ranked.byType]).toEqual([...byType]);
    // Type lists over one run long: sorted in steps too.
    expect(Math.max(...[...byType.values()].map((l) => l.length))).toBeGreaterThan(4096);
  });
});

describe("the files and assets phases in steps", () => {
  test("2,100 files of 3 assets: every record once, in record order, as fileInfoOf and recordAsset make them one by one", () => {
    const files: Record<string, string> = {
      "Data/Mod.xml": doc(
        includes(...Array.from({ length: 2100 }, (_, i) => ["all", `U/F${i}.xml`] as [string, string])),
      ),
    };
    for (let i = 0; i < 2100; i++) {
      files[`Data/U/F${i}.xml`] = doc(
        [0, 1, 2].map((k) => `\t<WeaponTemplate id="W${i}_${k}" />`).join("\n"),
      );
    }
    const { core, ports } = memIndex(files);
    const walk = walkStreams(core, ports.inputs);
    const ctx = linkContext(core, ports.inputs);
    const [fileYields, table] = drive(linkFilesSteps(ctx, walk));
    // A yield per 2,048 records, one before the walk's missing targets.
    expect(fileYields).toBe(Math.floor(2101 / 2048) + 1);
    const expectedFiles = new Map<string, FileInfo>();
    for (const f of ctx.all) {
      const info = fileInfoOf(ctx, f, walk.reached.get(f.key));
      if (info) expectedFiles.set(f.key, info);
    }
    expect([...table]).toEqual([...expectedFiles]);
    const [assetYields, assets] = drive(linkAssetsSteps(ctx, table, walk));
    // A yield per 1,024 records, one before the manifests.
    expect(assetYields).toBe(Math.floor(2101 / 1024) + 1);
    const expected: AssetDef[] = [];
    for (const f of ctx.all) {
      const info = table.get(f.key)!;
      for (let i = 0; i < f.loaded.record.assets.length; i++) {
        expected.push(recordAsset(ctx, f.loaded, info, i, expected.length));
      }
    }
    expect(assets.assets).toEqual(expected);
    expect(assets.assets.length).toBe(6300);
  });
});
