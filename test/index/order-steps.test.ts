/**
 * Issue 16 item 7: the core's link order made in steps before a walk (the ranks a few thousand files at
 * a time, then a sort in steps) is exactly the order made at once: by rank, then path, then key.
 */
import { describe, expect, test } from "bun:test";
import { IndexCore } from "../../src/index/core.ts";
import { emptyRecord } from "../../src/index/records.ts";
import { pathKey } from "../../src/project/paths.ts";
import { prng } from "../prng.ts";

/** Ranks like a layout's: by folder, a few paths sharing a rank. */
const rank = (path: string) => (path.includes("/Sdk/") ? 2 : path.includes("/Maps/") ? 1 : 0);

/** `n` paths in a shuffled order: three folders, names that differ in case only now and then. */
function paths(n: number, seed: number): string[] {
  const rnd = prng(seed);
  const folders = ["/m/Data", "/m/Maps", "/m/Sdk"];
  const out = Array.from(
    { length: n },
    (_, i) => `${folders[i % 3]}/F${Math.floor(i / 3)}${i % 7 === 0 ? "a" : "A"}.xml`,
  );
  return out.sort(() => rnd() - 0.5);
}

function coreOf(list: readonly string[]): IndexCore {
  const core = new IndexCore(null, rank);
  for (const p of list) core.setRecord(p, emptyRecord("xml"), { size: 1, mtimeMs: 1 });
  return core;
}

describe("the link order in steps", () => {
  test("5,000 records installed out of order: the stepped order equals a sort by rank, path and key at once", () => {
    const list = paths(5000, 11);
    const stepped = coreOf(list);
    let yields = 0;
    for (const _ of stepped.prepareOrderSteps()) yields++;
    // A yield per 2,048 ranked, then the sort's (2 runs of 4,096, a merge pass).
    expect(yields).toBeGreaterThanOrEqual(2 + 2);
    const expected = list.map((p) => ({ p, k: pathKey(p), r: rank(p) })).sort((a, b) =>
      a.r - b.r || (a.p < b.p ? -1 : a.p > b.p ? 1 : a.k < b.k ? -1 : a.k > b.k ? 1 : 0)
    ).map((x) => x.p);
    expect([...stepped.values()].map((f) => f.path)).toEqual(expected);
    expect([...coreOf(list).values()].map((f) => f.path)).toEqual(expected);
    // Made: nothing more to do until a file appears.
    expect([...stepped.prepareOrderSteps()].length).toBe(0);
  });

  test("files that appear or go between the steps are in the order made when it is asked for", () => {
    const list = paths(3000, 5);
    const core = coreOf(list);
    const steps = core.prepareOrderSteps();
    expect(steps.next().done).toBe(false);
    // One already ranked goes, one appears.
    core.applyChanges([{ path: list[0], deleted: true }]);
    core.setRecord("/m/Data/Aaa.xml", emptyRecord("xml"), null);
    for (let r = steps.next(); !r.done; r = steps.next());
    const order = [...core.values()].map((f) => f?.path);
    expect([order.length, order[0], order.includes(list[0])]).toEqual([3000, "/m/Data/Aaa.xml", false]);
  });
});
