/**
 * The reference phase's resolution memo is bounded (issue 15 item 4): past 65,536 distinct values the
 * later ones are resolved every time instead of memoised. Every site must resolve exactly as without a
 * bound — the memoised values, the ones past the bound, each met again later, a self-reference among them.
 */
import { describe, expect, test } from "bun:test";
import { link } from "../../src/index/link.ts";
import { doc, memIndex } from "./fixture.ts";

describe("the resolution memo past its bound", () => {
  test("70,000 distinct values, each named again at the end: every site resolves to the asset it names", () => {
    const n = 70_000;
    const lines: string[] = [];
    // W{i} inherits from W{i+1} (distinct values, in order: the first 65,536 are memoised, the rest not);
    // the last one names an id nobody defines.
    for (let i = 0; i < n; i++) lines.push(`\t<WeaponTemplate id="W${i}" inheritFrom="W${i + 1}" />`);
    // Named again: early (memoised) and late (past the bound) values, then a self-reference past the bound
    // (skipped: the asset itself is the only candidate, and without an SDK that is not found).
    lines.push(`\t<WeaponTemplate id="Again0" inheritFrom="W5" />`);
    lines.push(`\t<WeaponTemplate id="Again1" inheritFrom="W69000" />`);
    lines.push(`\t<WeaponTemplate id="Again2" inheritFrom="w69001" />`);
    lines.push(`\t<WeaponTemplate id="Self" inheritFrom="Self" />`);
    const { core, ports } = memIndex({ "Data/Mod.xml": doc(lines.join("\n")) });
    const linked = link(core, ports.inputs);
    const indexOf = new Map(linked.assets.map((a) => [a.id.toLowerCase(), a.index]));
    expect(linked.sites.length).toBe(n + 4);
    let wrong = 0;
    for (const s of linked.sites.slice(0, n + 3)) {
      const want = indexOf.get(s.value.toLowerCase());
      const ok = want === undefined
        ? s.status === "not_found" && s.targets.length === 0
        : s.status === "resolved" && s.targets.length === 1 && s.targets[0] === want;
      if (!ok) wrong++;
    }
    expect(wrong).toBe(0);
    const last = linked.sites.slice(n - 1).map((s) => [s.value, s.status, s.targets.map((t) => linked.assets[t].id)]);
    expect(last).toEqual([
      ["W70000", "not_found", []],
      ["W5", "resolved", ["W5"]],
      ["W69000", "resolved", ["W69000"]],
      ["w69001", "resolved", ["W69001"]],
      ["Self", "not_found", []],
    ]);
  });
});
