/** The bounded table of shared strings (`src/xml/shared-strings.ts`): same object for the same characters, exact values past its bounds, and copies that pin no document. */
import { describe, expect, test } from "bun:test";
import { heapStats } from "bun:jsc";
import { detachedSlice, SharedStrings } from "../../src/xml/shared-strings.ts";

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
});
