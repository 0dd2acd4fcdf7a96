/**
 * The duplicate-id table of one document's extraction: the same answers as a map keyed by
 * `name + "\0" + id.toLowerCase()` (what it replaced), for ASCII and non-ASCII ids, across its growth.
 */
import { describe, expect, test } from "bun:test";
import { type SeenAsset, SeenAssets } from "../../src/index/seen-assets.ts";

/** Runs `declared` through a table and through the map it replaced: each one's first-index answers. */
function both(declared: readonly SeenAsset[]): [number[], number[]] {
  const assets: SeenAsset[] = [];
  const seen = new SeenAssets(assets);
  const map = new Map<string, number>();
  const table: number[] = [];
  const oracle: number[] = [];
  for (const a of declared) {
    table.push(seen.firstOrAdd(a.type, a.id, assets.length));
    const key = `${a.type}\u0000${a.id.toLowerCase()}`;
    const first = map.get(key);
    if (first === undefined) map.set(key, assets.length);
    oracle.push(first ?? -1);
    assets.push(a);
  }
  return [table, oracle];
}

describe("the assets a document declared", () => {
  test("ids compare case-insensitively within one element name, not across names", () => {
    const [table] = both([
      { type: "WeaponTemplate", id: "Gun" },
      { type: "WeaponTemplate", id: "GUN" },
      { type: "ArmorTemplate", id: "gun" },
      { type: "WeaponTemplate", id: "gun" },
      { type: "WeaponTemplate", id: "Gun2" },
    ]);
    expect(table).toEqual([-1, 0, -1, 0, -1]);
  });

  test("non-ASCII ids as toLowerCase compares them (Ä/ä, the dotted İ whose lower case is two units)", () => {
    const [table, oracle] = both([
      { type: "T", id: "Ärger" },
      { type: "T", id: "äRGER" },
      { type: "T", id: "İd" },
      { type: "T", id: "i\u0307d" },
      { type: "T", id: "Id" },
      { type: "T", id: "ΣΊΣΥΦΟΣ" },
      { type: "T", id: "σίσυφοσ" },
    ]);
    expect(table).toEqual(oracle);
    // The last: Σ at the end lower-cases to the final ς, so σίσυφοσ is another id.
    expect(table).toEqual([-1, 0, -1, 2, -1, -1, -1]);
  });

  test("100,000 random ids of a small alphabet (many repeats, every growth step): the map's answers", () => {
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    const letters = "aAbBcC_1é";
    const declared: SeenAsset[] = [];
    for (let i = 0; i < 100_000; i++) {
      let id = "";
      const n = 1 + (next() % 7);
      for (let k = 0; k < n; k++) id += letters[next() % letters.length];
      declared.push({ type: next() % 4 === 0 ? "B" : "A", id });
    }
    const [table, oracle] = both(declared);
    expect(table).toEqual(oracle);
    expect(oracle.filter((x) => x >= 0).length).toBeGreaterThan(50_000);
  });
});
