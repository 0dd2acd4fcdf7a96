/** The bounded table of shared strings (`src/xml/shared-strings.ts`): same object for the same characters, exact values past its bounds, and copies that pin no document. */
import { describe, expect, test } from "bun:test";
import { heapStats } from "bun:jsc";
import { detachedSlice, rawHash, SharedStrings } from "../../src/xml/shared-strings.ts";

describe("SharedStrings", () => {
  test("the same characters give the same string object, read in place from any text", () => {
    const table = new SharedStrings(8, 64, 16);
    const a = table.get("<x v='GameObject'/>", 6, 16);
    const b = table.get("GameObject", 0, 10);
    expect(a).toBe("GameObject");
    expect(Object.is(a, b)).toBe(true);
    expect(table.get("GameObjects", 0, 11)).toBe("GameObjects");
    expect(table.get("xGameObjecx", 1, 10)).toBe("GameObjec");
    expect(table.get("abc", 1, 1)).toBe("");
    expect(table.size).toBe(3);
  });

  test("getHashed with the characters folded by the caller finds the same shared copy as get", () => {
    const table = new SharedStrings(8, 64, 16);
    const src = "<Prop ThingTemplate='CC_Grass08'/>";
    const a = table.get(src, 6, 19);
    let h = 0;
    for (let k = 6; k < 19; k++) h = (Math.imul(h, 31) + src.charCodeAt(k)) | 0;
    expect(h).toBe(rawHash(src, 6, 19));
    expect(Object.is(table.getHashed(src, 6, 19, h), a)).toBe(true);
    expect(table.getHashed("ThingTemplate", 0, 13, rawHash("ThingTemplate", 0, 13))).toBe("ThingTemplate");
    expect(table.size).toBe(1);
  });

  test("past the entry limit, for long strings and on colliding hashes the values stay exact", () => {
    const table = new SharedStrings(6, 16, 8);
    const words = Array.from({ length: 500 }, (_, i) => `w${i}`);
    for (let round = 0; round < 2; round++) {
      for (const w of words) expect(table.get(`[${w}]`, 1, w.length + 1)).toBe(w);
    }
    expect(table.size).toBe(16);
    const long = "L".repeat(9);
    expect(table.get(long, 0, 9)).toBe(long);
    expect(table.size).toBe(16);
  });

  test("kept strings do not keep their documents alive", () => {
    const table = new SharedStrings(8, 128, 64);
    Bun.gc(true);
    const before = heapStats().heapSize;
    const kept: string[] = [];
    for (let i = 0; i < 20; i++) {
      const doc = `<doc>${String(i % 10).repeat(2_000_000)}<id>Asset_${i}</id></doc>`;
      const start = doc.indexOf("Asset_");
      kept.push(table.get(doc, start, doc.indexOf("</id>")));
      kept.push(detachedSlice(doc, start, start + 5));
    }
    Bun.gc(true);
    // Twenty 2-million-character documents are 40 MB; what is kept is a few hundred bytes.
    expect(heapStats().heapSize - before).toBeLessThan(10_000_000);
    expect(kept[2 * 7]).toBe("Asset_7");
    expect(kept[2 * 7 + 1]).toBe("Asset");
  });

  test("a detached copy is one string of its own, not a view of a padded copy, and exact for any characters", () => {
    const doc = Array.from({ length: 20_000 }, (_, i) => `<x id="HugeWeapon${String(i).padStart(7, "0")}"/>`).join(
      "\n",
    );
    const kept: string[] = [];
    for (let at = doc.indexOf('"'); at >= 0; at = doc.indexOf('"', doc.indexOf('"', at + 1) + 1)) {
      kept.push(detachedSlice(doc, at + 1, doc.indexOf('"', at + 1)));
    }
    expect(kept.length).toBe(20_000);
    expect(kept[12_345]).toBe("HugeWeapon0012345");
    const strings = (): number => {
      Bun.gc(true);
      return heapStats().objectTypeCounts.string ?? 0;
    };
    const held = strings();
    kept.length = 0;
    // One string cell per copy: 22,038 here (a slice of a padded copy is two, the view and the padded
    // string: 42,038).
    const cells = held - strings();
    expect(cells).toBeGreaterThanOrEqual(20_000);
    expect(cells).toBeLessThan(30_000);
    expect(doc.length).toBe(20_000 * 28 - 1);
    for (const c of ['a"b', "a\\b", "\u0000\u001f\t\r\n", "\ud800x", "x\udfff", "é漢字😀", "\u2028\u2029", "{}[]"]) {
      expect(detachedSlice(`<<${c}>>`, 2, 2 + c.length)).toBe(c);
    }
    expect(detachedSlice("abc", 1, 1)).toBe("");
  });
});
