// The 20,000-character bound: the generic list shortening, the refit-by-smaller-page path, the
// "too large" error, and every tool with huge arguments on the Upheaval corpus.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { answerSize, MAX_ANSWER_CHARS, shortenStrings, shrinkLists } from "../../src/mcp/bound.ts";
import { toToolResult } from "../../src/mcp/respond.ts";
import { MAX_COMPLETION_VALUE } from "../../src/query/completions.ts";
import { bodyOf, connect, CORPORA, type Harness, type Json, resultOf, textOf } from "./harness.ts";
import { tempDirs } from "../temp-dirs.ts";

const TMP = tempDirs();

describe("shrinkLists", () => {
  test("cuts the largest list and counts what it left out", () => {
    const r = shrinkLists({ small: [1], big: ["aaaa", "bbbb", "cccc", "dddd"], nested: { list: [1, 2] } }, 0.5);
    expect(r).toEqual({ small: [1], big: ["aaaa"], nested: { list: [1, 2] }, truncated: true, omitted: { big: 3 } });
    const again = shrinkLists(shrinkLists({ a: { b: [1, 2, 3, 4, 5] } }, 0.5)!, 0.1);
    expect(again).toEqual({ a: { b: [1] }, truncated: true, omitted: { "a.b": 4 } });
  });

  test("never below one item; null when no list has two", () => {
    expect(shrinkLists({ a: [1, 2] }, 0.01)).toEqual({ a: [1], truncated: true, omitted: { a: 1 } });
    expect(shrinkLists({ text: "x".repeat(100), list: [], one: [1] }, 0.5)).toBeNull();
  });
});

describe("shortenStrings", () => {
  test("cuts every longer string, ending in …, and counts them; null when none is longer", () => {
    const r = { items: [{ id: "a".repeat(40), file: "f.xml" }], note: "b".repeat(33) };
    expect(shortenStrings(r, 32)).toEqual({
      items: [{ id: `${"a".repeat(31)}…`, file: "f.xml" }],
      note: `${"b".repeat(31)}…`,
      truncated: true,
      shortened: 2,
    });
    expect(shortenStrings(r, 64)).toBeNull();
    expect(shortenStrings(r, 16)).toBeNull(); // below the shortest cut
  });
});

describe("toToolResult", () => {
  const index = null;
  test("a small answer passes untouched", () => {
    const r = toToolResult({ index, result: { items: [1, 2] } }, { render: (x) => `${x.items.length} items` });
    expect(r).toEqual({
      content: [{ type: "text", text: "2 items" }],
      structuredContent: { index: null, result: { items: [1, 2] } },
    });
  });

  test("too large: a refit (smaller page) is preferred over cutting lists", () => {
    const big = { items: Array.from({ length: 100 }, (_, i) => `item-${i}`), nextCursor: null as string | null };
    const r = toToolResult({ index, result: big }, {
      render: () => "",
      refit: (x, f) => ({ items: x.items.slice(0, Math.floor(x.items.length * f)), nextCursor: "next" }),
    }, 500);
    const sc = r.structuredContent as Json;
    expect([sc.result.nextCursor, sc.result.truncated, JSON.stringify(sc).length <= 500]).toEqual([
      "next",
      undefined,
      true,
    ]);
  });

  test("without a refit the lists are cut and the text says so", () => {
    const big = { items: Array.from({ length: 100 }, (_, i) => `item-${i}`) };
    const r = toToolResult({ index, result: big }, { render: (x) => `${x.items.length} items` }, 500);
    const sc = r.structuredContent as Json;
    expect(sc.result.truncated).toBe(true);
    expect(sc.result.items.length + sc.result.omitted.items).toBe(100);
    expect(textOf(r)).toBe(
      `${sc.result.items.length} items\n(answer shortened to stay under the size limit: ${sc.result.omitted.items} items left out; narrow the question)`,
    );
    expect(answerSize(sc, textOf(r))).toBeLessThanOrEqual(500);
  });

  test("a page of one item too large on its own keeps the item, its strings cut short, and its cursor", () => {
    const page = { items: [{ id: "x".repeat(3000), file: "Data/A.xml" }], nextCursor: "after-x" };
    const r = toToolResult({ index, result: page }, {
      render: (p) => p.items.map((i) => i.id).join("\n"),
      refit: () => null, // already one item
    }, 1000);
    const sc = r.structuredContent as Json;
    expect([sc.result.items.length, sc.result.items[0].file, sc.result.nextCursor, sc.result.shortened]).toEqual([
      1,
      "Data/A.xml",
      "after-x",
      1,
    ]);
    expect(sc.result.items[0].id).toBe(`${"x".repeat(255)}…`);
    expect(answerSize(sc, textOf(r))).toBeLessThanOrEqual(1000);
  });

  test("an answer that cannot be shortened enough is an error, never cut JSON", () => {
    const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`field${i}`, i]));
    const r = toToolResult({ index, result: many }, { render: () => "" }, 500);
    expect([r.isError, textOf(r)]).toEqual([
      true,
      "the answer is larger than 500 characters even after shortening its lists and strings; ask a narrower question (a type, a prefix, fewer paths, a smaller depth)",
    ]);
  });
});

describe("paging never skips an item that is too large for a page", () => {
  const HUGE = `B${"x".repeat(25_000)}`;
  let h: Harness;
  beforeAll(async () => {
    const dir = TMP.make("ra3-mcp-huge-");
    mkdirSync(join(dir, "Data"));
    writeFileSync(
      join(dir, "Data", "Mod.xml"),
      `<?xml version="1.0" encoding="utf-8"?>\n<AssetDeclaration xmlns="uri:ea.com:eala:asset">\n` +
        `<WeaponTemplate id="A1"/>\n<WeaponTemplate id="${HUGE}"/>\n<WeaponTemplate id="C1"/>\n</AssetDeclaration>\n`,
    );
    h = await connect(dir);
    await h.call("get_status", { consistency: "strict" });
  });
  afterAll(async () => {
    await h.close();
  });

  test("the huge asset comes alone on its page, its id cut short, and the cursor goes on to the next", async () => {
    const pages: Json[] = [];
    let cursor: string | null = null;
    do {
      const r = await h.call("list_assets_by_type", { type: "WeaponTemplate", ...(cursor ? { cursor } : {}) });
      expect(answerSize(r.structuredContent, textOf(r))).toBeLessThanOrEqual(MAX_ANSWER_CHARS);
      pages.push(resultOf(r));
      cursor = resultOf(r).nextCursor;
    } while (cursor && pages.length < 10);
    expect(pages.map((p) => p.items.map((i: Json) => i.id.slice(0, 4)))).toEqual([["A1"], ["Bxxx"], ["C1"]]);
    expect(pages.map((p) => p.shortened ?? 0)).toEqual([0, 1, 0]);
    expect(pages[1].items[0].id).toBe(`${HUGE.slice(0, 4095)}…`); // the first cut (4,096) that fits
  });
});

describe("completions are bounded like every answer", () => {
  test("at most 100 values, none longer than 190 characters; the total counts the candidates offered", async () => {
    const dir = TMP.make("ra3-mcp-complete-");
    mkdirSync(join(dir, "Data"));
    const long = (i: number) => `W${String(i).padStart(3, "0")}${"y".repeat(MAX_COMPLETION_VALUE - 4)}`;
    const ids = [...Array.from({ length: 150 }, (_, i) => long(i)), `W${"z".repeat(300)}`];
    writeFileSync(
      join(dir, "Data", "Mod.xml"),
      `<AssetDeclaration xmlns="uri:ea.com:eala:asset">${
        ids.map((id) => `<WeaponTemplate id="${id}"/>`).join("")
      }</AssetDeclaration>\n`,
    );
    const h = await connect(dir);
    try {
      await h.call("get_status", { consistency: "strict" });
      const r = await h.client.complete({
        ref: { type: "ref/resource", uri: "ra3://asset/{type}/{id}" },
        argument: { name: "id", value: "w" },
        context: { arguments: { type: "WeaponTemplate" } },
      });
      expect([r.completion.values.length, r.completion.total, r.completion.hasMore]).toEqual([100, 150, true]);
      expect(r.completion.values[0]).toBe(long(0));
      expect(Math.max(...r.completion.values.map((v) => v.length))).toBe(MAX_COMPLETION_VALUE);
      expect(JSON.stringify(r).length).toBeLessThanOrEqual(MAX_ANSWER_CHARS);
    } finally {
      await h.close();
    }
  });
});

const UPHEAVAL = join(CORPORA, "upheaval");

describe.skipIf(!existsSync(UPHEAVAL))("every answer stays under 20,000 characters (Upheaval)", () => {
  let h: Harness;
  // Builds Upheaval with its schema: a generous timeout for a busy machine (not a timing assertion).
  beforeAll(async () => {
    h = await connect(UPHEAVAL);
    await h.call("get_status", { consistency: "strict" });
  }, 120_000);
  afterAll(async () => {
    await h.close();
  });

  function size(r: CallToolResult): number {
    return answerSize(r.structuredContent ?? null, textOf(r));
  }

  const calls: [string, Record<string, unknown>][] = [
    ["get_status", {}],
    ["list_projects", {}],
    ["list_assets_by_type", { type: "AudioFile", limit: 10_000 }],
    ["list_assets_by_type", { type: "GameScriptList", limit: 10_000 }],
    ["find_unreferenced", { limit: 10_000 }],
    ["list_files", { limit: 10_000 }],
    ["check_files", { limit: 10_000 }],
    ["search_strings", { text: "a", limit: 10_000 }],
    ["get_usage_guide", {}],
    ["get_usage_guide", { topic: "a" }],
    ["get_usage_guide", { topic: "query-guide" }],
    ["get_usage_guide", { topic: "mod-xml-primer" }],
    ["reindex", {}],
  ];

  test.each(calls)("%s %j", async (name, args) => {
    const r = await h.call(name, args);
    expect(r.isError ?? false).toBe(false);
    expect(size(r)).toBeLessThanOrEqual(MAX_ANSWER_CHARS);
  });

  test("the lists that would overflow come back as shorter pages with a cursor", async () => {
    for (
      const [name, args, list] of [
        ["find_unreferenced", { limit: 10_000 }, "items"],
        ["search_strings", { text: "a", limit: 10_000 }, "matches"],
        ["list_assets_by_type", { type: "AudioFile", limit: 10_000 }, "items"],
        ["list_files", { limit: 10_000 }, "items"],
      ] as const
    ) {
      const r = resultOf(await h.call(name, args));
      // find_unreferenced groups its page by type.
      const n = Array.isArray(r[list]) ? r[list].length : Object.values<Json[]>(r[list]).flat().length;
      expect(`${name} ${n < r.total}`).toBe(`${name} true`);
      expect(n).toBeGreaterThan(10);
    }
  });

  // Full-depth answers on a real mod: a generous timeout for a busy machine (not a timing assertion).
  test("the busiest assets: references both ways at full depth", async () => {
    const objects = resultOf(await h.call("list_assets_by_type", { type: "GameObject", limit: 200 })).items.map((
      i: Json,
    ) => i.id) as string[];
    let cut = 0;
    for (const id of objects) {
      const fwd = await h.call("get_asset_references", { id, type: "GameObject", depth: 3, maxEdges: 1000 });
      expect(size(fwd)).toBeLessThanOrEqual(MAX_ANSWER_CHARS);
      if (!fwd.isError && resultOf(fwd).truncated) cut++;
      const def = await h.call("get_definition", { id, type: "GameObject" });
      expect(size(def)).toBeLessThanOrEqual(MAX_ANSWER_CHARS);
    }
    // Some of these walks exceed the bound and come back shortened (truncated), not oversized.
    expect(cut).toBeGreaterThan(0);
  }, 60_000);

  test("list_files: the shortened pages, followed to the end, hold every file once, in order", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let total = 0;
    let pages = 0;
    do {
      const r = await h.call("list_files", { limit: 10_000, ...(cursor ? { cursor } : {}) });
      expect(size(r)).toBeLessThanOrEqual(MAX_ANSWER_CHARS);
      const page = resultOf(r);
      total = page.total;
      seen.push(...page.items.map((i: Json) => i.file as string));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 100);
    expect(pages).toBeGreaterThan(1);
    const all = resultOf(await h.call("list_files", { limit: 40 })).items.map((i: Json) => i.file);
    expect([seen.length, new Set(seen).size, seen.slice(0, 40)]).toEqual([total, total, all]);
  });

  test("a shortened page still pages exactly: the next page starts right after it", async () => {
    const first = resultOf(await h.call("list_assets_by_type", { type: "AudioFile", limit: 10_000 }));
    expect(first.items.length).toBeLessThan(200);
    expect(first.total).toBeGreaterThan(first.items.length);
    const second = resultOf(
      await h.call("list_assets_by_type", { type: "AudioFile", limit: 10_000, cursor: first.nextCursor }),
    );
    const plain = resultOf(await h.call("list_assets_by_type", { type: "AudioFile", limit: first.items.length + 3 }));
    expect(plain.items.slice(first.items.length).map((i: Json) => i.id)).toEqual(
      second.items.slice(0, 3).map((i: Json) => i.id),
    );
  });
});

describe("hidden characters in ids are escaped in the text answers", () => {
  let h: Harness;
  beforeAll(async () => {
    const dir = TMP.make("ra3-mcp-hidden-");
    mkdirSync(join(dir, "Data"));
    // &#10; keeps a line break in the id; U+202E reverses what follows; ESC starts a terminal colour.
    writeFileSync(
      join(dir, "Data", "Mod.xml"),
      `<AssetDeclaration xmlns="uri:ea.com:eala:asset">\n<WeaponTemplate id="Evil&#10;- WeaponTemplate Fake  Data/Fake.xml:1"/>\n` +
        `<WeaponTemplate id="Gun\u202Ekcatta"/>\n</AssetDeclaration>\n`,
    );
    // XML cannot hold an ESC, a file name can.
    writeFileSync(
      join(dir, "Data", "Odd\u001B[31m.xml"),
      `<AssetDeclaration xmlns="uri:ea.com:eala:asset"><WeaponTemplate id="Odd"/></AssetDeclaration>\n`,
    );
    h = await connect(dir);
    await h.call("get_status", { consistency: "strict" });
  });
  afterAll(async () => {
    await h.close();
  });

  test("list_assets_by_type: one line per asset, the line break, bidi override and escape written out", async () => {
    const r = await h.call("list_assets_by_type", { type: "WeaponTemplate" });
    expect(bodyOf(r)).toBe(
      [
        "3 of 3 WeaponTemplate:",
        "- Evil\\n- WeaponTemplate Fake  Data/Fake.xml:1  Data/Mod.xml:2",
        "- Gun\\u{202E}kcatta  Data/Mod.xml:3",
        "- Odd  Data/Odd\\u{001B}[31m.xml:1 (file not included)",
      ].join("\n"),
    );
    // The structured answer keeps the id as it is.
    expect(resultOf(r).items.map((i: Json) => i.id)).toContain("Gun\u202Ekcatta");
  });

  test("list_files: the ESC in a file name written out", async () => {
    const r = await h.call("list_files", {});
    expect(bodyOf(r).split("\n")).toEqual([
      "2 of 2 files (1 compiled, 0 referenced, 1 not included):",
      "- Data/Mod.xml  [static, 2 assets]",
      "- Data/Odd\\u{001B}[31m.xml  [not included, 1 asset]",
    ]);
    expect(resultOf(r).items[1]).toEqual({ file: "Data/Odd\u001B[31m.xml", state: "not-included", assets: 1 });
  });

  test("find_asset and an error sentence quoting the id", async () => {
    const found = await h.call("find_asset", { id: "Evil\n- WeaponTemplate Fake  Data/Fake.xml:1" });
    expect(bodyOf(found).split("\n")).toEqual([
      '1 definition of "Evil\\n- WeaponTemplate Fake  Data/Fake.xml:1":',
      "- WeaponTemplate Evil\\n- WeaponTemplate Fake  Data/Fake.xml:1  Data/Mod.xml:2  [project, compiled in static]",
    ]);
    const missing = await h.call("find_asset", { id: "Nope\u202Eevil" });
    expect(bodyOf(missing).split("\n").length).toBe(1);
    expect(textOf(missing)).toStartWith('no asset has the id "Nope\\u{202E}evil"');
  });
});
